// The case issue #21 met: a confined server runs a 6 s tool call when a folder is granted to it
// (read-only). The grant is mounted live (the same process); a configuration
// change then needs a new process, so it is restarted, but only after the call: the call succeeds, a
// call sent meanwhile reaches the new process (which sees both folders), and nothing is an error.
// As root and as an unprivileged user (tests/fixtures/confined-drain.ts runs in a child process).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { openFuseDevice, removeTempDirs, tempDir } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const isRoot = process.getuid?.() === 0;

afterEach(() => removeTempDirs());

interface DrainFacts {
  uid: number;
  forecast: { grant?: string; revoke?: string };
  slowOk: boolean;
  pidBefore: number;
  pidAfterGrant: number;
  pidAfter: number;
  duringSaw: string[];
  expectedUris: string[];
  lifecycles: string[];
  errors: string[];
  log: string[];
}

async function run(as: 'self' | 'nobody'): Promise<DrainFacts> {
  const base = tempDir(`confined-drain-${as}-`);
  fs.chmodSync(base, 0o777);
  const node = [process.execPath, '--import', 'tsx', 'tests/fixtures/confined-drain.ts', base];
  const [command, args] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...node]] : [node[0] as string, node.slice(1)];
  // /dev/fuse is often root's alone (0600); a person's machine gives it to them, so the test does too.
  const env = as === 'nobody' ? { ...process.env, MCP_ROOTS_FUSE_DEVICE: openFuseDevice() } : process.env;
  const { stdout } = await promisify(execFile)(command, args as string[], { cwd: repoRoot, env, timeout: 150_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as DrainFacts;
}

describe.runIf(support.kind === 'bwrap' && support.view?.available === true)('a grant to a confined server with a call running', () => {
  for (const as of isRoot ? (['self', 'nobody'] as const) : (['self'] as const)) {
    it(`mounts the grant live and restarts for the config change after the call, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'an unprivileged user'}`, async () => {
      const facts = await run(as);
      if (as === 'nobody') expect(facts.uid).toBe(65534);
      // Said before: a grant (read-write too: it arrives with its protected paths) is mounted live;
      // the last folder's revoke restarts it (it would go on naming it).
      expect(facts.forecast).toEqual({ revoke: 'forget' });
      expect(facts.slowOk).toBe(true);
      expect(facts.pidAfterGrant).toBe(facts.pidBefore);
      expect(facts.pidAfter).not.toBe(facts.pidBefore);
      expect(facts.duringSaw).toEqual(facts.expectedUris);
      expect(facts.lifecycles).toEqual(expect.arrayContaining(['ready', 'draining', 'restarting', 'connecting']));
      expect(facts.log.at(-1)).toBe('Restarting when 1 running call finishes (at most 30 s).');
      expect(facts.errors).toEqual([]);
    }, 180_000);
  }
});
