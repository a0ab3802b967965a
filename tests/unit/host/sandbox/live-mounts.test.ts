// The pure parts of live grants: which mounts a change drops and adds (live-mounts.ts), the
// holder's command for each (holder-launch.ts), and bwrap's plan under a holder (bwrap-plan.ts).
import { describe, expect, it } from 'vitest';
import { planBwrap, type BwrapPlanInput } from '../../../../electron/host/sandbox/bwrap-plan.js';
import { grantTree, type GrantMount } from '../../../../electron/host/sandbox/grant-mounts.js';
import { liveBatch } from '../../../../electron/host/sandbox/holder-batch.js';
import { holderArgs, shellQuote } from '../../../../electron/host/sandbox/holder-launch.js';
import { mountChanges } from '../../../../electron/host/sandbox/live-mounts.js';

const root = (path: string, writable = true): GrantMount => ({ path, writable, purpose: 'root' });
const paths = (mounts: GrantMount[]) => mounts.map((mount) => `${mount.writable ? 'rw' : 'ro'} ${mount.path}`);

describe('mountChanges', () => {
  it('adds a new grant and leaves the others mounted', () => {
    const { drop, add } = mountChanges([root('/a')], [root('/a'), root('/b')]);
    expect(paths(drop)).toEqual([]);
    expect(paths(add)).toEqual(['rw /b']);
  });

  it('a mode change is an unmount and a new mount', () => {
    const { drop, add } = mountChanges([root('/a')], [root('/a', false)]);
    expect(paths(drop)).toEqual(['rw /a']);
    expect(paths(add)).toEqual(['ro /a']);
  });

  it('mounts below a changed one are dropped with it and mounted again on top, parents first', () => {
    const before = [root('/a'), root('/a/b', false), root('/a/b/c')];
    const { drop, add } = mountChanges(before, [root('/a', false), root('/a/b', false), root('/a/b/c')]);
    expect(paths(drop)).toEqual(['rw /a/b/c', 'ro /a/b', 'rw /a']);
    expect(paths(add)).toEqual(['ro /a', 'ro /a/b', 'rw /a/b/c']);
  });

  it('a revoke of a parent keeps a nested grant by mounting it again; an unrelated one is untouched', () => {
    const { drop, add } = mountChanges([root('/a'), root('/a/b'), root('/z')], [root('/a/b'), root('/z')]);
    expect(paths(drop)).toEqual(['rw /a/b', 'rw /a']);
    expect(paths(add)).toEqual(['rw /a/b']);
  });

  it('follows the protected paths and anchors a new read-write grant brings (the same list as at start)', () => {
    const before = grantTree({ roots: [], dataDir: '/data', protectedPaths: [], programs: [] });
    const after = grantTree({ roots: [{ path: '/p', mode: 'read-write' }], dataDir: '/data', protectedPaths: ['/p/.git/hooks'], programs: [] });
    expect(mountChanges(before, after).add.map((mount) => `${mount.purpose} ${mount.path}`)).toEqual(['root /p', 'anchor /p/.git', 'protected /p/.git/hooks']);
  });
});

describe('the holder', () => {
  it('quotes any path for sh', () => {
    expect(shellQuote(`/it's here/$(x)`)).toBe(`'/it'\\''s here/$(x)'`);
  });

  it('builds a live change in pending: a read-write folder with its protected paths inside it, the rest on their own, read-only where planned', () => {
    const ids = new Map([
      ['/p', { dev: 1, ino: 2, directory: true }],
      ['/p/.git', { dev: 1, ino: 3, directory: true }],
      ['/p/.git/hooks', { dev: 1, ino: 4, directory: true }],
      ['/p/.mcp.json', { dev: 1, ino: 5, directory: false }],
      ['/r s', { dev: 1, ino: 6, directory: true }],
    ]);
    const add = grantTree({ roots: [{ path: '/p', mode: 'read-write' }, { path: '/r s', mode: 'read-only' }], dataDir: '/data', protectedPaths: ['/p/.git/hooks', '/p/.mcp.json'], programs: [] });
    const batch = liveBatch({ stage: '/d/stage', add, identities: ids, flagsOf: () => ['nosuid'], tag: 't' });
    expect(batch.moves).toEqual([
      { path: '/p', pending: '/d/stage/pending/t.0', directory: true },
      { path: '/r s', pending: '/d/stage/pending/t.1', directory: true },
    ]);
    expect(batch.files.fstab.split('\n')).toEqual([
      '/p /d/stage/pending/t.0 none bind 0 0',
      '/r\\040s /d/stage/pending/t.1 none bind,ro,nosuid 0 0',
      '/p/.git /d/stage/pending/t.0/.git none bind 0 0',
      '/p/.mcp.json /d/stage/pending/t.0/.mcp.json none bind,ro,nosuid 0 0',
      '/p/.git/hooks /d/stage/pending/t.0/.git/hooks none bind,ro,nosuid 0 0',
      '',
    ]);
    // Only the groups' own points are made (in pending); the rest are in the folder already.
    expect(batch.files.points).toBe('/d/stage/pending/t.0\0/d/stage/pending/t.1\0');
    // A protected path on the folder itself would stack in pending and not move with it: a new start does it.
    expect(() => liveBatch({ stage: '/d', add: [root('/q'), { path: '/q', writable: false, purpose: 'protected' }], identities: new Map([['/q', { dev: 1, ino: 7, directory: true }]]), flagsOf: () => [], tag: 't' })).toThrow(/lies on \/q itself/);
  });

  it('runs from its own user and mount namespace, mounts the grants in one batch, then execs bwrap in place', () => {
    const args = holderArgs({ unshare: '/usr/bin/unshare', stage: '/d/stage', batch: '/d/holder-1', tmpBytes: 1024 });
    expect(args.slice(0, 10)).toEqual(['/usr/bin/unshare', '-U', '-r', '-m', '--propagation', 'private', '--', '/bin/sh', '-c', expect.any(String)]);
    const script = args[9] as string;
    expect(script).toContain(`mount -n -c -a -T '/d/holder-1'/fstab`);
    expect(script).toContain('size=1024,mode=1777 tmp');
    expect(script.trim().endsWith('exec "$@"')).toBe(true);
  });
});

describe('planBwrap under a holder', () => {
  const input: BwrapPlanInput = {
    bwrap: '/usr/bin/bwrap',
    disableUserns: true,
    layout: { topLevel: [{ path: '/bin', symlinkTo: 'usr/bin' }], etc: ['/etc/passwd'] },
    command: '/usr/bin/node',
    args: ['/srv/server/index.js'],
    env: {},
    programPaths: ['/srv/server'],
    roots: [{ path: '/work/p', mode: 'read-write' }],
    home: '/data/sandbox/servers/s/home',
    tmp: '/data/sandbox/servers/s/tmp',
    dataDir: '/data',
    network: false,
    holder: { stage: '/data/sandbox/servers/s/stage', uid: 1000, gid: 1000 },
  };

  it('makes the stage its root, keeps the app’s uid, and leaves grants and /tmp to the holder', () => {
    const plan = planBwrap(input);
    const args = plan.bwrapCommand.join(' ');
    expect(args).toContain('--uid 1000 --gid 1000 --bind /data/sandbox/servers/s/stage/root /');
    expect(args).not.toContain('/work/p');
    expect(args).not.toContain('--tmpfs /tmp');
    expect(plan.descriptors).toEqual(['/srv/server']);
    expect(plan.grantMounts).toEqual([{ path: '/work/p', writable: true, purpose: 'root' }]);
    // The self-check still knows every mount.
    expect(plan.mounts.map((mount) => mount.path)).toEqual(expect.arrayContaining(['/work/p', '/tmp', '/srv/server']));
  });

  it('without a holder, binds the grants itself as before', () => {
    const plan = planBwrap({ ...input, holder: undefined });
    expect(plan.bwrapCommand.join(' ')).toContain('--bind-fd 4 /work/p');
    expect(plan.bwrapCommand.join(' ')).toContain('--tmpfs /tmp');
  });
});
