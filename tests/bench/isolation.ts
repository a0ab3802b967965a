// Section 10: one hostile server must not slow the others. Another server's update (an edit of its
// grants -> it has re-fetched roots/list) is timed with no attacker, beside a server writing a line
// that never ends, and beside one flooding roots/list as fast as its pipe takes them, all in this
// run, with what each attack costs the host's CPU and how much of it the host read.
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ReadBuffer, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/client';
import { InboundLimiter } from '../../electron/host/launch/inbound-limits.js';
import type { RootsHost } from '../../electron/host/roots-host.js';
import { makeFolders, repoRoot, rootsRequests, startBenchHost, timingServer, waitUntil } from './bench-env.js';
import { percentile, type Figure } from './figures.js';
import { refetched } from './notify-latency.js';

const hostile = (mode: string) => ({
  type: 'stdio' as const,
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures/hostile-server.mjs'), mode],
  env: {},
});

const UPDATE_TIMEOUT_MS = 10_000;

interface Condition {
  samples: number[];
  cpuPercent: number;
  /** The host's event loop: how late a 10 ms timer ran, p99 (ms). */
  loopDelayP99: number;
  seconds: number;
  attackerRequests: number;
}

async function timeUpdates(host: RootsHost, neighbour: string, rootId: string, edits: number, attacker?: string): Promise<Condition> {
  const samples: number[] = [];
  const requestsBefore = attacker ? rootsRequests(host, attacker) : 0;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = process.cpuUsage();
  const wallStart = performance.now();
  for (let i = 0; i < edits; i++) {
    const fetched = refetched(host, [neighbour]);
    const start = performance.now();
    await host.setGrants([neighbour], [rootId], i % 2 === 0);
    // An update that never arrives counts as the whole wait, and the run goes on.
    const at = await Promise.race([fetched.done.then(([first]) => first as number), new Promise<number>((resolve) => setTimeout(() => resolve(start + UPDATE_TIMEOUT_MS), UPDATE_TIMEOUT_MS))]);
    fetched.stop();
    samples.push(at - start);
    // A pause between edits: the attack runs between them too, over seconds, not only during them.
    await new Promise((resolve) => setTimeout(resolve, 40 + (i % 5) * 15));
  }
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - wallStart;
  loop.disable();
  return {
    samples,
    cpuPercent: ((used.user + used.system) / 1000 / wall) * 100,
    loopDelayP99: loop.percentile(99) / 1e6,
    seconds: wall / 1000,
    attackerRequests: attacker ? rootsRequests(host, attacker) - requestsBefore : 0,
  };
}

/**
 * CPU to read one line that never ends, up to the 10 MB limit, in 64 KB chunks (what a pipe gives):
 * the SDK's ReadBuffer (concatenates and re-scans everything at each chunk) against the limiter.
 */
function endlessLineCost(reader: { append(chunk: Buffer): void; readMessage(): unknown }): number {
  const chunk = Buffer.alloc(64 * 1024, 0x78);
  const before = process.cpuUsage();
  try {
    for (let read = 0; read <= STDIO_DEFAULT_MAX_BUFFER_SIZE; read += chunk.length) {
      reader.append(chunk);
      reader.readMessage();
    }
  } catch {
    // Both refuse the line at 10 MB.
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** `lineRuns`: reads of the endless line each (the SDK's costs seconds of CPU; best of them is kept). */
/** `quietAgain`: the no-attacker edits are made again after the attacks too (off in --quick: before them only). */
export async function isolation(edits: number, lineRuns = 3, quietAgain = true): Promise<Figure[]> {
  const runs = Array.from({ length: lineRuns }, (_, i) => i);
  const sdkLine = Math.min(...runs.map(() => endlessLineCost(new ReadBuffer())));
  const limitedLine = Math.min(...runs.map(() => endlessLineCost(new InboundLimiter())));

  // The attacker comes back 200 ms after each failure, not after growing delays: the attack never
  // pauses while the neighbour is timed (harsher than the app's own backoff). So does a flooder whose
  // session was closed (the app waits 30 s and more): each new session floods again, and is held to
  // its rate and paused afresh (inbound-limits.ts).
  const host = await startBenchHost({ connection: { reconnectDelaysMs: [200], floodRestartDelaysMs: [200] } });
  try {
    const { added } = await host.addRoots(makeFolders(2));
    const [baseId, rootId] = added.map((root) => root.id) as [string, string];
    // The neighbour runs outside the sandbox: a change of an enforced server's roots restarts it
    // (seconds), while this times the host's own part, list_changed and the re-fetch it answers.
    const { id: neighbour } = await host.addServer({ name: 'neighbour', transport: timingServer, enabled: true, sharing: true, sandbox: false });
    await waitUntil(() => rootsRequests(host, neighbour) >= 1, 60_000);
    await host.setGrants([neighbour], [baseId], true);
    await waitUntil(() => rootsRequests(host, neighbour) >= 2);

    const quiet = await timeUpdates(host, neighbour, rootId, edits);

    const liner = await host.addServer({ name: 'endless-line', transport: hostile('endless-line'), enabled: true, sharing: true });
    await waitUntil(() => host.getState().servers.find((s) => s.id === liner.id)?.status.state === 'connected', 60_000);
    const endless = await timeUpdates(host, neighbour, rootId, edits);
    const linerConnects = host.activity(liner.id).filter((entry) => entry.kind === 'connect').length;
    await host.removeServer(liner.id);

    const flooder = await host.addServer({ name: 'flood', transport: hostile('flood-roots-max'), enabled: true, sharing: true });
    await waitUntil(() => rootsRequests(host, flooder.id) > 500, 60_000);
    const flood = await timeUpdates(host, neighbour, rootId, edits, flooder.id);
    const flooderLog = host.activity(flooder.id);
    const flooderSessions = flooderLog.filter((entry) => entry.kind === 'connect').length;
    const flooderPauses = flooderLog.filter((entry) => /not read at all/.test(entry.message)).length;
    await host.removeServer(flooder.id);

    const again = quietAgain ? await timeUpdates(host, neighbour, rootId, edits) : undefined;
    const none: Condition = again
      ? {
          samples: [...quiet.samples, ...again.samples],
          cpuPercent: (quiet.cpuPercent + again.cpuPercent) / 2,
          loopDelayP99: Math.max(quiet.loopDelayP99, again.loopDelayP99),
          seconds: quiet.seconds + again.seconds,
          attackerRequests: 0,
        }
      : quiet;

    const budget = { max: 20, text: '< 20 ms' };
    const row = (id: string, what: string, c: Condition, note: string): Figure[] => [
      { id: `isolation-${id}-p50`, label: `10. another server's update (edit -> it re-fetched), p50, ${what}`, value: percentile(c.samples, 50), floor: percentile(none.samples, 50), unit: 'ms' },
      { id: `isolation-${id}-p99`, label: `10. ... p99, ${what}`, value: percentile(c.samples, 99), floor: percentile(none.samples, 99), unit: 'ms', budget },
      { id: `isolation-${id}-loop`, label: `10. ... the host's event loop delay, p99, ${what}`, value: c.loopDelayP99, floor: none.loopDelayP99, unit: 'ms' },
      { id: `isolation-${id}-cpu`, label: `10. ... host process CPU meanwhile, ${what} (% of one core)`, value: c.cpuPercent, floor: none.cpuPercent, unit: '%', note },
    ];
    return [
      {
        id: 'isolation-endless-line-cpu',
        label: '10. CPU to read a line that never ends, up to the 10 MB limit in 64 KB chunks (floor: the SDK ReadBuffer)',
        value: limitedLine,
        floor: sdkLine,
        unit: 'ms',
        note: `best of ${lineRuns} each; the SDK also went on reading the line for the 2-4 s its close waits for the process to exit, the limiter stops reading`,
      },
      { id: 'isolation-none-p50', label: `10. another server's update (edit -> it re-fetched), p50, no attacker (${none.samples.length} edits)`, value: percentile(none.samples, 50), unit: 'ms' },
      { id: 'isolation-none-p99', label: '10. ... p99, no attacker', value: percentile(none.samples, 99), unit: 'ms', budget },
      { id: 'isolation-none-loop', label: "10. ... the host's event loop delay, p99, no attacker", value: none.loopDelayP99, unit: 'ms' },
      { id: 'isolation-none-cpu', label: '10. ... host process CPU meanwhile, no attacker (% of one core)', value: none.cpuPercent, unit: '%', note: `${none.seconds.toFixed(1)} s, ${again ? 'before and after the attacks' : 'before the attacks (--quick)'}` },
      ...row('endless', `beside a never-ending line (${edits} edits)`, endless, `${linerConnects} session(s) of the attacker over ${endless.seconds.toFixed(1)} s`),
      ...row('flood', `beside a roots/list flood (${edits} edits)`, flood, `the host read ${Math.round(flood.attackerRequests / flood.seconds)} flood requests/s from the attacker over ${flood.seconds.toFixed(1)} s (${flooderSessions} session(s) of it from its start, ${flooderPauses} pause(s))`),
    ];
  } finally {
    await host.stop();
  }
}
