// The holder's start batch (holder-batch.ts), run for real in a user + mount namespace as the app
// runs it, as root and as an unprivileged user: one `mount -a` mounts every grant, protected name
// and mask, and the read-back refuses what a race or a planted symlink made of it before anything
// else may run. The command after the holder prints what it sees, as bwrap would be exec'd there.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { grantTree, type GrantMount } from '../../electron/host/sandbox/grant-mounts.js';
import { holderBatch, mountFlagsOf, writeHolderBatch } from '../../electron/host/sandbox/holder-batch.js';
import { HOLDER_FAILED, holderArgs } from '../../electron/host/sandbox/holder-launch.js';
import { identityOf, type PathIdentity } from '../../electron/host/sandbox/mount-descriptors.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { removeTempDirs, tempDir } from '../support/index.js';

const support = await probeSandbox();
const holder = support.kind === 'bwrap' ? support.holder : undefined;
const isRoot = process.getuid?.() === 0;
afterEach(removeTempDirs);

/** A world readable by nobody: the person's projects, the stage and the batch folder. */
function world(): { base: string; project: string; notes: string; stage: string; batch: string } {
  const base = tempDir('holder-batch-');
  fs.chmodSync(base, 0o777);
  // A name that needs escaping in fstab and the mount table alike.
  const project = path.join(base, 'my project\\ with\ttab');
  const notes = path.join(base, 'notes');
  for (const dir of [project, path.join(project, '.vscode'), path.join(project, 'src', 'data'), notes, path.join(base, 'stage')]) fs.mkdirSync(dir, { recursive: true });
  for (const dir of [project, path.join(project, '.vscode'), path.join(project, 'src'), path.join(project, 'src', 'data'), notes, path.join(base, 'stage')]) fs.chmodSync(dir, 0o777);
  fs.writeFileSync(path.join(project, '.mcp.json'), '{}\n', { mode: 0o666 });
  fs.writeFileSync(path.join(notes, 'n.txt'), 'n\n', { mode: 0o666 });
  return { base, project, notes, stage: path.join(base, 'stage'), batch: path.join(base, 'batch') };
}

function plan(w: ReturnType<typeof world>): { mounts: GrantMount[]; identities: Map<string, PathIdentity> } {
  const mounts = grantTree({
    roots: [
      { path: w.project, mode: 'read-write' },
      { path: w.notes, mode: 'read-only' },
    ],
    dataDir: path.join(w.project, 'src', 'data'),
    protectedPaths: [path.join(w.project, '.vscode'), path.join(w.project, '.mcp.json')],
    programs: [],
  });
  const identities = new Map(mounts.filter((mount) => fs.existsSync(mount.path)).map((mount) => [mount.path, identityOf(mount.path) as PathIdentity]));
  return { mounts, identities };
}

/** Runs the holder with the batch, then `script` in its place (where bwrap would be); as nobody when asked. */
function runHolder(w: ReturnType<typeof world>, mounts: readonly GrantMount[], identities: ReadonlyMap<string, PathIdentity>, as: 'self' | 'nobody', script: string) {
  writeHolderBatch(w.batch, holderBatch({ stage: w.stage, grantMounts: mounts, identities, flagsOf: mountFlagsOf() }));
  fs.chmodSync(w.batch, 0o755);
  for (const name of fs.readdirSync(w.batch)) fs.chmodSync(path.join(w.batch, name), 0o644);
  const args = [...holderArgs({ unshare: holder?.available ? holder.unshare : 'unshare', stage: w.stage, batch: w.batch, tmpBytes: 1 << 20 }), '/bin/sh', '-c', script, 'inside', `${w.stage}/root`];
  const [command, rest] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...args]] : [args[0] as string, args.slice(1)];
  return spawnSync(command, rest, { encoding: 'utf8', timeout: 60_000 });
}

const TRY = [
  'R="$1"',
  'echo x 2>/dev/null > "$R$P/src/new.txt" && echo "source: written" || echo "source: refused"',
  'echo x 2>/dev/null > "$R$P/.mcp.json" && echo "mcp: written" || echo "mcp: refused"',
  'mkdir "$R$P/.vscode/x" 2>/dev/null && echo "vscode: written" || echo "vscode: refused"',
  'echo x 2>/dev/null > "$R$N/new.txt" && echo "notes: written" || echo "notes: refused"',
  'cat "$R$N/n.txt"',
  'ls -A "$R$P/src/data" | wc -l',
].join('\n');

describe.skipIf(!holder?.available)('the holder’s start batch', () => {
  for (const as of isRoot ? (['self', 'nobody'] as const) : (['self'] as const)) {
    it(`mounts grants, protected names and the data-folder mask in one batch, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'nobody'}`, () => {
      const w = world();
      fs.writeFileSync(path.join(w.project, 'src', 'data', 'registry.json'), '{}\n');
      const { mounts, identities } = plan(w);
      const run = runHolder(w, mounts, identities, as, `P=${shq(w.project)} N=${shq(w.notes)}\n${TRY}`);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout.split('\n')).toEqual(['source: written', 'mcp: refused', 'vscode: refused', 'notes: refused', 'n', '0', '']);
      expect(fs.readFileSync(path.join(w.project, 'src', 'new.txt'), 'utf8')).toBe('x\n');
    });

    it(`refuses a granted folder swapped for a symlink after the plan, before anything runs, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'nobody'}`, () => {
      const w = world();
      const { mounts, identities } = plan(w);
      // The swap a second server sharing the base could make: notes becomes a link to /etc.
      fs.renameSync(w.notes, `${w.notes}.old`);
      fs.symlinkSync('/etc', w.notes);
      const run = runHolder(w, mounts, identities, as, 'echo ran');
      expect(run.status).toBe(HOLDER_FAILED);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`${w.notes} was replaced since it was checked`);
    });

    it(`refuses a protected name whose way in became a symlink (it would land elsewhere), as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'nobody'}`, () => {
      const w = world();
      const inner = path.join(w.project, 'src');
      fs.mkdirSync(path.join(inner, '.claude'));
      const mounts = grantTree({ roots: [{ path: w.project, mode: 'read-write' }], dataDir: '/nonexistent-data', protectedPaths: [path.join(inner, '.claude')], programs: [] });
      const identities = new Map(mounts.map((mount) => [mount.path, identityOf(mount.path) as PathIdentity]));
      // src is moved aside and a link put in its place: the target's way now leads out of the project.
      const elsewhere = path.join(w.base, 'elsewhere');
      fs.renameSync(inner, elsewhere);
      fs.symlinkSync(elsewhere, inner);
      const run = runHolder(w, mounts, identities, as, 'echo ran');
      expect(run.status).toBe(HOLDER_FAILED);
      expect(run.stdout).toBe('');
      // src is pinned (an anchor on the way to a protected name), so the swap is seen there first.
      expect(run.stderr).toContain(`${inner} was replaced since it was checked`);
    });

    it(`mounts a repository named with a Unicode space at its own place, not where a planted look-alike leads, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'nobody'}`, () => {
      const w = world();
      // The attack on the fstab text: U+1680 was written as \13200, read back as "Z00", so the
      // protected .vscode of r<U+1680> was bound at rZ00/.vscode, a link the server planted to a
      // folder of its own (on the real attack, the holder's /usr/bin).
      const repo = path.join(w.project, 'r\u1680\u3000');
      const decoy = path.join(w.base, 'decoy');
      for (const dir of [path.join(repo, '.vscode'), path.join(decoy, '.vscode')]) fs.mkdirSync(dir, { recursive: true, mode: 0o777 });
      fs.chmodSync(repo, 0o777);
      fs.symlinkSync(decoy, path.join(w.project, 'rZ00\u3000'));
      const mounts = grantTree({ roots: [{ path: w.project, mode: 'read-write' }], dataDir: '/nonexistent-data', protectedPaths: [path.join(repo, '.vscode')], programs: [] });
      const identities = new Map(mounts.map((mount) => [mount.path, identityOf(mount.path) as PathIdentity]));
      const script = [
        'R="$1"',
        `mkdir "$R"${shq(path.join(repo, '.vscode', 'x'))} 2>/dev/null && echo "repo: written" || echo "repo: refused"`,
        `mkdir "$R"${shq(path.join(decoy, '.vscode', 'y'))} 2>/dev/null && echo "decoy: no grant there" || echo "decoy: missing, as it is not granted"`,
        `grep -c decoy /proc/self/mountinfo || true`,
      ].join('\n');
      const run = runHolder(w, mounts, identities, as, script);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout.split('\n')).toEqual(['repo: refused', 'decoy: missing, as it is not granted', '0', '']);
    });
  }

  it.skipIf(!isRoot)('makes a folder read-only on a nosuid, nodev, noexec mount (the flags a user namespace must repeat)', () => {
    const w = world();
    // A mount of its own with locked flags, in a private mount namespace of the test's (root only).
    const locked = path.join(w.base, 'locked');
    fs.mkdirSync(locked, { mode: 0o777 });
    const script = [
      `mount -t tmpfs -o nosuid,nodev,noexec,noatime locked ${shq(locked)} && mkdir -m 777 ${shq(`${locked}/d`)} || exit 3`,
      `exec "$@"`,
    ].join('\n');
    const inner = `${process.execPath} --import tsx ${shq(path.resolve(import.meta.dirname, '../fixtures/holder-batch-run.ts'))} ${shq(w.stage)} ${shq(w.batch)} ${shq(`${locked}/d`)}`;
    const run = spawnSync('unshare', ['-m', '--propagation', 'private', '--', '/bin/sh', '-c', script, 'outer', '/bin/sh', '-c', inner], {
      encoding: 'utf8',
      timeout: 60_000,
      cwd: path.resolve(import.meta.dirname, '../..'),
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual([`${locked}/d ro,nosuid,nodev,noexec,noatime`, 'write: refused']);
  });
});

function shq(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
