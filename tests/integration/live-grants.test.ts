// Grants reach a running confined server live (holder-launch.ts, live-mounts.ts), through the app
// and through `mcp-roots proxy` as hosts run it, as root and as an unprivileged user: a 6 s tool call survives a
// grant; the same process sees the new folder, read-only where the grant is; a revoke hides it at
// the OS level; a revoke of a folder it holds a file open in restarts it, and the log says why; a
// server racing the mount with a planted symlink gets nothing else mounted; a repository granted
// live gets placeholders for its missing protected names, removed after its revoke.
// tests/fixtures/live-grant-world.ts runs the story and reports the facts.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { ensureBuilt } from '../support/cli.js';
import { openFuseDevice, removeTempDirs, tempDir } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const isRoot = process.getuid?.() === 0;

afterEach(removeTempDirs);
beforeAll(() => ensureBuilt(), 600_000);

interface WorldFacts {
  firstSandbox: { state: string; selfCheck: { verified: boolean; detail: string } };
  slowCall: string;
  afterGrant: { sameInstance: boolean; sameServerPid: boolean };
  writeReadOnly: string;
  hostHasWrite: boolean;
  afterRevoke: { read: string; list: string; sameInstance: boolean };
  verifiedAfterLive: { verified: boolean; detail: string };
  mechanism: 'view' | 'mounts';
  hold: string;
  heldCut?: { readHeld: string; sameInstance: boolean; hiddenAfter: string };
  race: { secretEverSeen: boolean; raced: string; secretNow: string };
  liveRepository: { sameInstance: boolean; hammer: { written: string[] }; onHost: string[] };
  livePlaceholders: { onHost: boolean[]; writeSource: string; writeVscode: string; writeMcp: string };
  placeholdersGone: true | string[];
}

async function runWorld(route: 'app' | 'proxy', as: 'self' | 'nobody'): Promise<WorldFacts> {
  const base = tempDir(`live-${route}-${as}-`);
  fs.chmodSync(base, 0o777);
  const node = [process.execPath, '--import', 'tsx', 'tests/fixtures/live-grant-world.ts', route, base];
  const [command, args] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...node]] : [node[0] as string, node.slice(1)];
  // Unprivileged: a FUSE device open to all, as a stock Debian's (here /dev/fuse is root's only).
  const env = as === 'nobody' ? { ...process.env, MCP_ROOTS_FUSE_DEVICE: openFuseDevice() } : process.env;
  const { stdout } = await promisify(execFile)(command, args as string[], { cwd: repoRoot, timeout: 240_000, env });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as WorldFacts;
}

const users = isRoot ? (['self', 'nobody'] as const) : (['self'] as const);

describe.runIf(support.kind === 'bwrap' && support.view?.available === true)('grants applied live to a running confined server (its file view)', () => {
  for (const route of ['proxy', 'app'] as const) {
   for (const as of users) {
    it(`through the ${route}, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'an unprivileged user'}: no call interrupted, the same process sees the change, a held file is cut`, async () => {
      const facts = await runWorld(route, as);
      expect(facts.firstSandbox).toMatchObject({ state: 'enforced', selfCheck: { verified: true } });
      expect(facts.firstSandbox.selfCheck.detail).toContain('grants applied live');
      // The 6 s call ran across the grant and came back.
      expect(facts.slowCall).toBe('done after 6000 ms');
      expect(facts.afterGrant).toEqual({ sameInstance: true, sameServerPid: true });
      // Read-only at the OS level after a live add.
      expect(facts.writeReadOnly).toBe('ERROR EROFS');
      expect(facts.hostHasWrite).toBe(false);
      // The revoke hid the folder from the same process, and the sandbox was proved again.
      expect(facts.afterRevoke).toEqual({ read: 'ERROR ENOENT', list: 'ERROR ENOENT', sameInstance: true });
      expect(facts.verifiedAfterLive).toMatchObject({ verified: true, detail: expect.stringContaining('1 revoked folder(s) gone') });
      // Through its file view (the only way grants change live): a file held open under the revoked
      // folder is cut, in the same process, and the folder is gone.
      expect(facts.mechanism).toBe('view');
      expect(facts.hold).toBe('held');
      expect(facts.heldCut).toEqual({ readHeld: 'ERROR EACCES', sameInstance: true, hiddenAfter: 'ERROR ENOENT' });
      // The racer never saw the folder its symlink named, and the grant ended up where it belongs.
      expect(facts.race).toMatchObject({ secretEverSeen: false, raced: 'raced\n', secretNow: 'ERROR ENOENT' });
      // A repository granted read-write reaches the same process, and arrives whole: the server,
      // writing .mcp.json, .vscode/tasks.json and .git/hooks/pre-commit in a loop while it came
      // (making their folders where missing), never wrote one of them: all three are missing on the host.
      expect(facts.liveRepository).toEqual({ sameInstance: true, hammer: expect.objectContaining({ written: [] }), onHost: ['(missing)', '(missing)', '(missing)'] });
      // A repository granted read-write live: its missing .vscode and .mcp.json are refused, with
      // nothing made in the person's folder (a write into the missing .vscode finds no folder), and
      // the rest is writable.
      expect(facts.livePlaceholders).toEqual({ onHost: [false, false], writeSource: 'written', writeVscode: 'ERROR ENOENT', writeMcp: 'ERROR EROFS' });
      expect(facts.placeholdersGone).toBe(true);
    }, 300_000);
   }
  }
});
