// Servers whose program is reached through symlinks (a linked tools folder, a symlinked node, a
// shebang naming a linked interpreter, a worktree whose node_modules is a link), confined with real
// bubblewrap, as root and as an unprivileged user: each path must resolve inside as it does on the
// host, so each server starts and runs its real file.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { removeTempDirs, tempDir } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const fixtureServer = path.join(repoRoot, 'tests/fixtures/npx-package/server.mjs');
const isRoot = process.getuid?.() === 0;

afterEach(removeTempDirs);

/** Real files in one place, reached through links in others; everything readable by nobody. */
function linkedWorld() {
  const base = tempDir('linked-');
  fs.chmodSync(base, 0o755);
  const pkg = path.join(base, 'opt', 'pkg');
  fs.mkdirSync(pkg, { recursive: true, mode: 0o755 });
  fs.writeFileSync(path.join(pkg, 'package.json'), '{"name":"linked-fixture","type":"module"}');
  fs.copyFileSync(fixtureServer, path.join(pkg, 'server.mjs'));
  // A symlinked node in a folder of its own, reached through a linked folder.
  fs.mkdirSync(path.join(base, 'runtime', 'bin'), { recursive: true, mode: 0o755 });
  fs.symlinkSync(process.execPath, path.join(base, 'runtime', 'bin', 'node'));
  fs.mkdirSync(path.join(base, 'tools'), { mode: 0o755 });
  fs.symlinkSync('../opt/pkg', path.join(base, 'tools', 'link'));
  fs.symlinkSync(path.join(base, 'runtime', 'bin'), path.join(base, 'tools', 'nodebin'));
  const shebangServer = path.join(pkg, 'shebang-server.mjs');
  const server = fs.readFileSync(fixtureServer, 'utf8').replace(/^#!.*\n/, '');
  fs.writeFileSync(shebangServer, `#!${path.join(base, 'tools', 'nodebin', 'node')}\n${server}`, { mode: 0o755 });
  // A worktree whose node_modules is a link to the main checkout's.
  const store = path.join(base, 'main', 'node_modules', 'linked-fixture');
  fs.mkdirSync(store, { recursive: true, mode: 0o755 });
  fs.copyFileSync(path.join(pkg, 'package.json'), path.join(store, 'package.json'));
  fs.copyFileSync(fixtureServer, path.join(store, 'server.mjs'));
  fs.mkdirSync(path.join(base, 'wt'), { mode: 0o755 });
  fs.symlinkSync('../main/node_modules', path.join(base, 'wt', 'node_modules'));
  return {
    base,
    cases: [
      { name: 'script in a linked folder', command: process.execPath, args: [path.join(base, 'tools', 'link', 'server.mjs')], runs: path.join(pkg, 'server.mjs') },
      {
        name: 'symlinked node in a linked folder',
        command: path.join(base, 'tools', 'nodebin', 'node'),
        args: [path.join(base, 'tools', 'link', 'server.mjs')],
        runs: path.join(pkg, 'server.mjs'),
      },
      { name: 'shebang naming a linked interpreter', command: path.join(base, 'tools', 'link', 'shebang-server.mjs'), args: [], runs: shebangServer },
      {
        name: 'worktree with a linked node_modules',
        command: process.execPath,
        args: [path.join(base, 'wt', 'node_modules', 'linked-fixture', 'server.mjs')],
        runs: path.join(store, 'server.mjs'),
      },
    ],
  };
}

async function confineEach(as: 'self' | 'nobody', dataDir: string, cases: readonly { name: string; command: string; args: string[] }[]) {
  const node = [process.execPath, '--import', 'tsx', 'tests/fixtures/confine-each.ts', dataDir, JSON.stringify(cases)];
  const [command, args] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...node]] : [node[0] as string, node.slice(1)];
  const { stdout } = await promisify(execFile)(command, args as string[], { cwd: repoRoot, timeout: 100_000, env: { ...process.env, HOME: dataDir } });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as {
    uid: number;
    kind: string;
    outcomes: Record<string, string>;
    checks: Record<string, { verified: boolean; detail?: string }>;
  };
}

const users = isRoot ? (['self', 'nobody'] as const) : (['self'] as const);

describe.runIf(support.kind === 'bwrap')('a confined server reached through symlinks', () => {
  for (const as of users) {
    it(`starts and runs its real file, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'an unprivileged user'}`, async () => {
      const world = linkedWorld();
      const dataDir = path.join(world.base, 'data');
      fs.mkdirSync(dataDir, { mode: 0o777 });
      fs.chmodSync(dataDir, 0o777);
      const facts = await confineEach(as, dataDir, world.cases);
      expect(facts).toMatchObject({ uid: as === 'nobody' ? 65534 : process.getuid?.(), kind: 'bwrap' });
      const expected = Object.fromEntries(world.cases.map((c) => [c.name, JSON.stringify({ file: c.runs, home: path.join(dataDir, 'sandbox', 'servers', `case-${world.cases.indexOf(c)}`, 'home') })]));
      expect(facts.outcomes).toEqual(expected);
      // The links made inside change nothing the self-check verifies.
      for (const c of world.cases) expect(facts.checks[c.name], `${c.name}: ${facts.checks[c.name]?.detail}`).toMatchObject({ verified: true });
    }, 120_000);
  }
});
