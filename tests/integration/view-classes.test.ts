// The classes the file view closes (issue #31), with two hostile servers (tests/fixtures/view-world.ts,
// view-attacker.mjs) through the app and through `mcp-roots proxy`, as root and as an unprivileged
// user: protected names at any depth and any time (a repository four levels down, a submodule's and a
// worktree's git files, the folder core.hooksPath names, a repository cloned while the servers run, a
// new .git), RENAME_EXCHANGE around them while a second server swaps folders in the same grant, and
// folders whose names need care, granted at the start and while the server runs. Every attempt is
// refused by the view; the person's repositories are as they were (entries, git folder, hooks,
// config, `git status`), nothing is left in their folders, and the ungranted project is untouched.
//
// Unprivileged: the world gets a FUSE device of its own, open to all (Debian's default mode for
// /dev/fuse; here /dev/fuse is root's only), made by this test (root).
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
afterEach(removeTempDirs);

interface Facts {
  uid: number;
  selfCheck: { verified: boolean; detail?: string };
  attack: Record<string, string>;
  oddNames: Record<string, string>;
  later: Record<string, string>;
  liveOddSeen: boolean;
  liveOddGone: boolean;
  swaps: number;
  otherProject: string;
  reposUnchanged: unknown[];
  scratchProtected: boolean;
  submoduleGitNew: { name: string; files: number }[];
  hooksPathIntact: boolean;
  plainAfter: string[];
  otherAfter: string[];
  oddAfter: string[];
}

async function runWorld(route: 'app' | 'proxy', as: 'self' | 'nobody'): Promise<Facts> {
  const base = tempDir(`view-${route}-${as}-`);
  fs.chmodSync(base, 0o777);
  const world = path.join(base, 'world');
  fs.mkdirSync(world, { mode: 0o777 });
  fs.chmodSync(world, 0o777);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (as === 'nobody') env.MCP_ROOTS_FUSE_DEVICE = openFuseDevice();
  const node = [process.execPath, '--import', 'tsx', 'tests/fixtures/view-world.ts', route, world];
  const [command, args] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...node]] : [node[0] as string, node.slice(1)];
  const { stdout } = await promisify(execFile)(command, args as string[], { cwd: repoRoot, timeout: 240_000, env, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Facts;
}

const users = isRoot ? (['self', 'nobody'] as const) : (['self'] as const);

describe.runIf(support.kind === 'bwrap' && support.view?.available)('protection at any depth and any time, through the file view', () => {
  for (const route of ['app', 'proxy'] as const) {
    for (const as of users) {
      it(`refuses every attempt, leaves the person’s repositories as they were, through the ${route}, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'an unprivileged user'}`, async () => {
        const facts = await runWorld(route, as);
        if (as === 'nobody') expect(facts.uid).not.toBe(0);
        expect(facts.selfCheck.verified, facts.selfCheck.detail).toBe(true);
        expect(facts.selfCheck.detail).toMatch(/through its file view/);
        const allowed = (name: string) => name.endsWith('(allowed)');
        for (const outcomes of [facts.attack, facts.later, facts.oddNames]) {
          for (const [name, outcome] of Object.entries(outcomes)) {
            if (allowed(name)) expect(outcome, name).toBe('ok');
            // Refused by the view (EROFS/EBUSY), or its folder not made (ENOENT: making it was refused), or git saying so.
            else expect(outcome, name).toMatch(/^ERROR (EROFS|EBUSY|ENOENT|.*Read-only file system)/);
          }
        }
        // The classes, each tried.
        expect(Object.keys(facts.attack)).toEqual(
          expect.arrayContaining([
            'deep repository: write .git/hooks/pre-commit',
            'deep repository: swap .git with a folder of its own (RENAME_EXCHANGE)',
            'submodule: write .git/modules/sub/hooks/post-checkout',
            'submodule: append to .git/modules/sub/config',
            'submodule: point its .git file elsewhere',
            'worktree: write .git/worktrees/wt/config.worktree',
            'hooksPath: write .githooks/pre-commit',
            'git init: make .git',
            'git init: the git command',
          ]),
        );
        expect(Object.keys(facts.later)).toContain('cloned while it ran: write .git/hooks/pre-commit');
        // Odd names work, at the start and live.
        expect(facts.oddAfter).toEqual(Array(5).fill('note.txt,there.txt'));
        expect([facts.liveOddSeen, facts.liveOddGone]).toEqual([true, true]);
        // The second server did swap folders meanwhile (its own, allowed), and reached nothing outside.
        expect(facts.swaps).toBeGreaterThan(0);
        expect(facts.otherProject).toBe('ERROR ENOENT');
        expect(facts.otherAfter).toEqual(['secret.txt']);
        // Nothing of the person's changed; nothing left in their folders.
        expect(facts.reposUnchanged).toEqual([]);
        expect(facts.scratchProtected).toBe(true);
        expect(facts.submoduleGitNew.every((entry) => entry.files === 0)).toBe(true);
        expect(facts.hooksPathIntact).toBe(true);
        expect(facts.plainAfter).toEqual(['note.txt']);
      }, 300_000);
    }
  }
});
