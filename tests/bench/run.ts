// `npm run bench [-- --quick]`: measures what DESIGN.md budgets, prints a table, writes JSON.
// Every figure that has a floor was measured against it in this same run.
import fs from 'node:fs';
import path from 'node:path';
import { cleanBenchDirs, repoRoot } from './bench-env.js';
import { ratio, table, verdict, type Figure } from './figures.js';
import { accessDetection } from './access-detection.js';
import { coalescing, editToNotify, roundTrip } from './notify-latency.js';
import { registryIo } from './registry-io.js';
import { rendererScale } from './renderer.js';
import { rootsAnswer } from './roots-answer.js';
import { reaskWindow } from './reask-window.js';
import { proxyFleets } from './proxies.js';
import { sandboxCost } from './sandbox.js';
import { fileViewCost } from './file-view.js';
import { fileRecordCost } from './file-record.js';
import { liveGrants } from './live-grants.js';
import { isolation } from './isolation.js';
import { egressCost } from './egress.js';
import { idleMemory, startup } from './startup-memory.js';

const quick = process.argv.includes('--quick');
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);

type Section = { name: string; run: () => Promise<Figure[]> };
// --quick runs every section with fewer samples, and leaves out the parts that are mostly waiting
// (the access monitor's 30 s idle cycles, Playwright's 10 s silences, the proxy fleet's idle, busy,
// grant and sandbox-off rounds and the app beside it) and a few figures with no budget (the proxies'
// floor 1, the sandbox's network through pasta), each marked as not measured; every budgeted figure
// is still measured, on fewer samples. The full run measures everything. On this shared 2-core
// machine it took 113 s at load 6-11, then under 60 s (2026-11-28, BENCHMARKS.md). Each section's
// time is printed, to say where it went.
const sections: Section[] = [
  { name: 'notify', run: () => editToNotify(quick ? [1, 5] : [1, 10, 50], quick ? 10 : 40) },
  { name: 'roundtrip', run: () => roundTrip(quick ? 20 : 60) },
  { name: 'coalesce', run: () => coalescing(quick ? 3 : 10, 1000) },
  { name: 'answer', run: () => rootsAnswer(quick ? [10, 1000] : [10, 1000, 10_000], quick ? 50 : 300) },
  { name: 'registry', run: () => registryIo(quick ? [100, 10_000] : [100, 10_000], quick ? 5 : 15) },
  // The monitor's idle CPU is always sampled over one whole safety-net cycle (30 s); the host's over the last figure.
  { name: 'access', run: () => accessDetection(1000, quick ? 3 : 20, quick ? 0 : 30) },
  { name: 'startup', run: () => startup(10) },
  { name: 'memory', run: () => idleMemory(quick ? 5 : 50, quick ? 1000 : 10_000, quick ? 500 : 1500) },
  { name: 'renderer', run: () => rendererScale(1000, 50, quick ? 3 : 15) },
  { name: 'sandbox', run: () => sandboxCost(quick ? 2 : 30, quick ? 1 : 10, quick) },
  // Quick: fewer grant changes through the proxy (the budget: none of its calls interrupted) and 2 restarts beside it.
  { name: 'live', run: () => liveGrants(quick ? 20 : 100, quick ? 10 : 50, quick ? 2 : 10) },
  // The file view beside bind mounts and no sandbox: a smaller tree and one round when quick, its page cache warmed by one plain run.
  { name: 'file-view', run: () => fileViewCost(quick ? 1 : 5, quick ? 2000 : 10_000, quick) },
  // The record (#29): serve's memory over 10,000 recorded writes, and the changes view's first paint over what they left.
  { name: 'file-record', run: () => fileRecordCost(10_000, quick ? 2 : 10) },
  { name: 'egress', run: () => egressCost(quick ? 20 : 200) },
  { name: 'isolation', run: () => isolation(quick ? 6 : 150, quick ? 1 : 3, !quick) },
  // Quick: one later change of the asks-once server (p50 of 1), not three.
  { name: 'reask', run: () => reaskWindow(quick ? 3 : 40, !quick, quick ? 1 : 10) },
  {
    name: 'proxies',
    run: () =>
      proxyFleets(
        quick
          ? { rootCounts: [100], fleetSizes: [1, 20], singleRepeats: 1, restartGrants: 0, grants: 0, idleWindowMs: 0, startOnly: true, cpuRepeats: 2, bareFloor: false }
          : { rootCounts: [100, 10_000], fleetSizes: [1, 5, 10, 20], singleRepeats: 5, restartGrants: 5, grants: 20, idleWindowMs: 10_000 },
      ),
  },
];

const started = Date.now();
// The machine is shared: the load around the run is part of the record.
const loadBefore = (await import('node:os')).loadavg();
const figures: Figure[] = [];
// Wall time per section: what a run's length is made of, so a slow `--quick` says where it went.
const sectionSeconds: Record<string, number> = {};
for (const section of sections) {
  if (only && !only.split(',').includes(section.name)) continue;
  process.stderr.write(`bench: ${section.name}...\n`);
  const sectionStarted = Date.now();
  try {
    figures.push(...(await section.run()));
  } catch (error) {
    figures.push({ id: `${section.name}-failed`, label: `${section.name} FAILED: ${(error as Error).message}`, value: Number.NaN, unit: 'count', budget: { max: 0, text: 'runs' } });
  } finally {
    cleanBenchDirs();
    sectionSeconds[section.name] = (Date.now() - sectionStarted) / 1000;
    process.stderr.write(`bench: ${section.name} took ${sectionSeconds[section.name]!.toFixed(1)} s\n`);
  }
}

const outDir = path.join(repoRoot, 'bench-results');
fs.mkdirSync(outDir, { recursive: true });
const out = path.join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}${quick ? '-quick' : ''}.json`);
const record = {
  when: new Date().toISOString(),
  quick,
  seconds: (Date.now() - started) / 1000,
  sectionSeconds,
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version, platform: process.platform },
  loadAverage: { before: loadBefore, after: (await import('node:os')).loadavg() },
  figures: figures.map((f) => ({ ...f, ratio: ratio(f), verdict: verdict(f) || undefined })),
};
fs.writeFileSync(out, JSON.stringify(record, null, 2));
process.stdout.write(`${table(figures)}\n\nnotes:\n${figures.filter((f) => f.note).map((f) => `  ${f.id}: ${f.note}`).join('\n')}\n\n`);
process.stdout.write(`sections (s): ${Object.entries(sectionSeconds).map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`).join(', ')}\n`);
process.stdout.write(`${record.seconds.toFixed(0)} s; load average (1, 5, 15 min) before ${fmtLoad(loadBefore)}, after ${fmtLoad(record.loadAverage.after)}; figures written to ${out}\n`);
const missed = figures.filter((f) => verdict(f) === 'MISS').length;
process.stdout.write(`${figures.filter((f) => verdict(f) === 'PASS').length} within budget, ${missed} missed\n`);
process.exit(0);

function fmtLoad(load: number[]): string {
  return load.map((value) => value.toFixed(1)).join(' / ');
}
