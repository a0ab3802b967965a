// Class 1's opt-in with real bubblewrap, as root and as an unprivileged user: a protected name the
// person chose to leave writable in one grant is writable there, and only there (through the
// sandbox module the app uses, and through `mcp-roots proxy` from the registry); every other
// protected name beside it, and the same name in another grant, stays read-only (refused by the
// kernel), and the self-check proves the rest and names the choice.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { removeTempDirs, tempDir } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const isRoot = process.getuid?.() === 0;
const users = isRoot ? (['self', 'nobody'] as const) : (['self'] as const);

afterEach(() => removeTempDirs());

async function runWorld(route: 'app' | 'proxy', as: 'self' | 'nobody'): Promise<{ uid: number; outcomes: Record<string, string>; selfCheck: { verified: boolean; detail?: string }; madeOnHost: string[] }> {
  const base = tempDir(`opt-in-${route}-${as}-`);
  fs.chmodSync(base, 0o777);
  const node = [process.execPath, '--import', 'tsx', 'tests/fixtures/opt-in-world.ts', route, base];
  const [command, args] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...node]] : [node[0] as string, node.slice(1)];
  const { stdout } = await promisify(execFile)(command, args as string[], { cwd: repoRoot, timeout: 120_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string);
}

describe.runIf(support.kind === 'bwrap')('a grant’s opt-in of protected paths (bubblewrap)', () => {
  for (const route of ['app', 'proxy'] as const) for (const as of users) {
    it(`opens exactly the chosen names in exactly that grant, through ${route === 'app' ? 'the sandbox module the app starts servers with' : 'mcp-roots proxy'}, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'an unprivileged user'}`, async () => {
      const facts = await runWorld(route, as);
      if (as === 'nobody') expect(facts.uid).not.toBe(0);
      const { outcomes } = facts;
      expect(outcomes['chosen: write .vscode/tasks.json (opted in)']).toBe('written');
      expect(outcomes['chosen: create .mcp.json (opted in)']).toBe('written');
      const refused = Object.entries(outcomes).filter(([name]) => !name.endsWith('(opted in)'));
      expect(refused).toHaveLength(7);
      // A missing name's folder: bind mounts hold a placeholder (the write is refused read-only); the
      // file view makes nothing, so the write finds no folder (ENOENT), and making it is refused.
      const viewed = /through its file view/.test(facts.selfCheck.detail ?? '');
      for (const [name, outcome] of refused) expect(outcome, name).toMatch(viewed && name.endsWith('(held missing)') ? /^ERROR ENOENT/ : /^ERROR (EROFS|EACCES|EPERM|EBUSY)/);
      expect(facts.madeOnHost).toEqual([]);
      expect(facts.selfCheck.verified, facts.selfCheck.detail).toBe(true);
      expect(facts.selfCheck.detail).toMatch(/writable by your choice: .*chosen\/\.vscode, .*chosen\/\.mcp\.json/);
    }, 150_000);
  }
});
