// Section 17: what a list of allowed hosts costs (issue #28), in the network world of the tests
// (tests/fixtures/egress-world.sh: a namespace of its own with "remote" addresses), measured
// against a server with any host (pasta alone) in the same run: a connection with a 1 KiB request
// and answer, a lookup of an allowed name, and a change of the list reaching the running server.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { benchDir, repoRoot } from './bench-env.js';
import { percentile, type Figure } from './figures.js';

export async function egressCost(rounds: number): Promise<Figure[]> {
  if (process.getuid?.() !== 0) return [{ id: 'egress-skipped', label: '17. allowed hosts: not measured (the network world is made as root)', value: Number.NaN, unit: 'count' }];
  const { stdout } = await promisify(execFile)('unshare', ['-n', '-m', 'sh', 'tests/fixtures/egress-world.sh', benchDir('egress'), String(rounds)], {
    cwd: repoRoot,
    env: { ...process.env, WORLD_SCRIPT: 'tests/bench/egress-child.ts' },
    maxBuffer: 16 * 1024 * 1024,
  });
  const facts = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, number[]> & { samePid: boolean };
  const p50 = (name: string) => percentile(facts[name] ?? [], 50);
  const echo = p50('echoGuarded');
  const echoFloor = p50('echoOpen');
  const lookup = p50('lookupGuarded');
  const lookupFloor = p50('lookupOpen');
  return [
    { id: 'egress-echo', label: `17. connect + 1 KiB each way, allowed host, p50 of ${facts.echoGuarded?.length}`, value: echo, floor: echoFloor, unit: 'ms', note: 'floor: the same with any host (pasta alone)' },
    { id: 'egress-echo-ratio', label: '17. ... allowed hosts / any host', value: echo / echoFloor, unit: 'x', budget: { max: 1.2, text: '<= 1.2x' } },
    { id: 'egress-lookup', label: `17. lookup of an allowed name, p50 of ${facts.lookupGuarded?.length}`, value: lookup, floor: lookupFloor, unit: 'ms', note: "floor: any host (pasta forwarding to the same resolver)" },
    { id: 'egress-lookup-added', label: '17. ... added by the answerer', value: lookup - lookupFloor, unit: 'ms', budget: { max: 2, text: '<= +2 ms' } },
    {
      id: 'egress-change',
      label: `17. a list change seen by the running server (through the app), p99 of ${facts.change?.length}`,
      value: percentile(facts.change ?? [], 99),
      unit: 'ms',
      budget: { max: 100, text: '< 100 ms' },
      note: `p50 ${percentile(facts.change ?? [], 50).toFixed(1)} ms; the same process throughout: ${facts.samePid}`,
    },
  ];
}
