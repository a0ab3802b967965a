// Section 18: the record of what a server did in its grants (#29), as the person meets it. The app
// is `mcp-roots serve`, a process of its own, so its memory is read from /proc without the bench's
// own allocations in it: its resident memory before and after a confined server makes `writes`
// writes (one new file each) through its file view, and then, in Chromium, the first paint of
// "Changes by this server" over the record those writes left (10,000 entries and more: the record
// keeps the newest 10,000 and trims a fifth over). Needs the file view (FUSE), the built CLI and
// renderer (npm run build) and /usr/bin/chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { RegistryEditor } from '../../electron/host/registry/registry-commands.js';
import { readFileRecord } from '../../electron/host/sandbox/audit/file-record.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { ServerStatus } from '../../shared/domain.js';
import { benchDir, repoRoot } from './bench-env.js';
import { percentile, type Figure } from './figures.js';
import { waitFor } from '../support/wait-for.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MIB = 1024 * 1024;

/** Resident memory of a process, from /proc (bytes). */
function rssOf(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) * 1024;
}

/** The median of a few readings a quarter second apart: one reading can land on a passing allocation. */
async function settledRss(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 8; i++) {
    readings.push(rssOf(pid));
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return percentile(readings, 50);
}

/** The statuses the serve process publishes for other processes (app-status.ts). */
function publishedStatus(dataDir: string, pid: number): Record<string, ServerStatus> {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dataDir, 'running', `serve-${pid}.json`), 'utf8')) as { servers: Record<string, ServerStatus> }).servers;
  } catch {
    return {};
  }
}


export async function fileRecordCost(writes: number, paints: number): Promise<Figure[]> {
  const support = await probeSandbox();
  if (support.kind !== 'bwrap' || !support.view?.available) {
    const why = support.kind !== 'bwrap' ? support.reason : support.view?.available === false ? support.view.reason : 'not probed';
    return [{ id: 'file-record-unavailable', label: `18. the file record not measured: ${why}`, value: 0, unit: 'count' }];
  }
  const cli = path.join(repoRoot, 'dist/electron/cli/main.js');
  if (!fs.existsSync(cli) || !fs.existsSync(path.join(repoRoot, 'dist/renderer/index.html'))) throw new Error('not built: run npm run build first');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}`);

  const dataDir = benchDir('file-record-data');
  const project = benchDir('file-record-project');
  const editor = await RegistryEditor.open(dataDir);
  const { added } = await editor.addRoots([project]);
  const server = await editor.addServer({ name: 'writer', transport: { type: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'tests/fixtures/record-writer-server.mjs'), project, String(writes)], env: {} }, enabled: true, sharing: true, network: false });
  await editor.setGrants([server.id], [added[0]!.id], true, 'read-write');
  await editor.close();

  const serve: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'bin/mcp-roots.js'), '--config-dir', dataDir, 'serve', '--port', '0', '--no-open'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    let out = '';
    serve.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    serve.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const url = await waitFor(() => out.match(/^Open: (http\S+)$/m)?.[1], { what: `serve's URL (${out})`, timeoutMs: 60_000 });
    const pid = serve.pid!;
    await waitFor(() => publishedStatus(dataDir, pid)[server.id]?.confinement?.selfCheck?.verified === true, {
      what: 'the writer started and verified in its sandbox',
      explain: () => `${JSON.stringify(publishedStatus(dataDir, pid)[server.id] ?? {}).slice(0, 800)}\n${out.slice(-300)}`,
      timeoutMs: 60_000,
    });
    if (publishedStatus(dataDir, pid)[server.id]?.confinement?.grants !== 'view') throw new Error('the writer runs without its file view');

    // 10,000 writes through the view, each reported to serve and appended to the record.
    const before = await settledRss(pid);
    const started = performance.now();
    fs.writeFileSync(path.join(project, 'go'), '');
    const last = path.join(project, 'w', `f${writes - 1}`);
    await waitFor(() => fs.existsSync(path.join(project, 'done')) && readFileRecord(dataDir, server.id).some((entry) => entry.op === 'write' && entry.path === last), { what: 'every write recorded', timeoutMs: 600_000, intervalMs: 500 });
    const writeSeconds = (performance.now() - started) / 1000;
    const after = await settledRss(pid);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const later = await settledRss(pid);
    const entries = readFileRecord(dataDir, server.id).length;

    // The UI over that record: "Changes by this server" opened (the Servers tab shows the one server's detail).
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })).newPage();
    const navigated = performance.now();
    await page.goto(url);
    const panel = page.getByRole('region', { name: 'Changes by this server' });
    await page.getByRole('tab', { name: /Servers/ }).click();
    await panel.getByRole('listitem').first().waitFor({ timeout: 30_000 });
    const fromNavigation = performance.now() - navigated;
    const opens: number[] = [];
    for (let i = 0; i < paints; i++) {
      await page.getByRole('tab', { name: /History/ }).click();
      await panel.waitFor({ state: 'detached' });
      const clicked = performance.now();
      await page.getByRole('tab', { name: /Servers/ }).click();
      await panel.getByRole('listitem').first().waitFor({ timeout: 30_000 });
      opens.push(performance.now() - clicked);
    }
    const rows = await panel.getByRole('listitem').count();
    return [
      {
        id: 'file-record-rss-growth',
        label: `18. serve's resident memory, after ${writes.toLocaleString('en')} recorded writes - before`,
        value: (after - before) / MIB,
        unit: 'MB',
        budget: { max: 10, text: '<= 10 MiB' },
        note: `MiB; before ${(before / MIB).toFixed(1)}, after ${(after / MIB).toFixed(1)}, 10 s later ${(later / MIB).toFixed(1)} (growth then ${((later - before) / MIB).toFixed(1)}); the writes took ${writeSeconds.toFixed(1)} s; the record holds ${entries} entries`,
      },
      {
        id: 'file-record-open-p50',
        label: `18. "Changes by this server" opened over ${entries.toLocaleString('en')} entries -> first row painted, p50 of ${paints}`,
        value: percentile(opens, 50),
        unit: 'ms',
        budget: { max: 500, text: '< 500 ms' },
        note: `worst ${Math.max(...opens).toFixed(0)} ms; from the page's navigation (the app's own load included) ${fromNavigation.toFixed(0)} ms; ${rows} rows drawn (at most 500); each time includes the host reading the record and Playwright's round trips`,
      },
      { id: 'file-record-open-navigation', label: '18. ... from navigation to the first row painted', value: fromNavigation, unit: 'ms' },
    ];
  } finally {
    await browser.close();
    serve.kill('SIGTERM');
    await new Promise((resolve) => (serve.exitCode !== null ? resolve(undefined) : serve.once('exit', resolve)));
  }
}
