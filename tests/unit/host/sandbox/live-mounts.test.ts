// The pure parts of live grants: which mounts a change drops and adds (live-mounts.ts), the
// holder's command for each (holder-launch.ts), and bwrap's plan under a holder (bwrap-plan.ts).
import { describe, expect, it } from 'vitest';
import { planBwrap, type BwrapPlanInput } from '../../../../electron/host/sandbox/bwrap-plan.js';
import { grantTree, type GrantMount } from '../../../../electron/host/sandbox/grant-mounts.js';
import { addCommand, addCommands, holderArgs, shellQuote } from '../../../../electron/host/sandbox/holder-launch.js';
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
  it('quotes any path for sh, and names the checked identity and the mode', () => {
    expect(shellQuote(`/it's here/$(x)`)).toBe(`'/it'\\''s here/$(x)'`);
    expect(addCommand(root('/a b', false), { dev: 1, ino: 2, directory: true })).toBe(`add '/a b' 1:2 ro d`);
    expect(addCommand({ path: '/p/.gitconfig', writable: false, purpose: 'protected' }, { dev: 1, ino: 3, directory: false })).toBe(`add '/p/.gitconfig' 1:3 ro f`);
    expect(() => addCommand(root('/a'), undefined)).toThrow(/no identity/);
  });

  it('builds a read-write folder with its protected paths whole in pending, and adds the rest one by one', () => {
    const ids = new Map([
      ['/p', { dev: 1, ino: 2, directory: true }],
      ['/p/.git', { dev: 1, ino: 3, directory: true }],
      ['/p/.git/hooks', { dev: 1, ino: 4, directory: true }],
      ['/p/.mcp.json', { dev: 1, ino: 5, directory: false }],
      ['/r', { dev: 1, ino: 6, directory: true }],
    ]);
    const add = grantTree({ roots: [{ path: '/p', mode: 'read-write' }, { path: '/r', mode: 'read-only' }], dataDir: '/data', protectedPaths: ['/p/.git/hooks', '/p/.mcp.json'], programs: [] });
    expect(addCommands(add, ids)).toEqual([
      `tree '/p' 1:2 rw`,
      `sub '/p/.git' 1:3 rw`,
      `sub '/p/.mcp.json' 1:5 ro`,
      `sub '/p/.git/hooks' 1:4 ro`,
      'plant',
      `add '/r' 1:6 ro d`,
    ]);
    // A protected path on the folder itself would stack in pending and not move with it: a new start does it.
    expect(() => addCommands([root('/q'), { path: '/q', writable: false, purpose: 'protected' }], new Map([['/q', { dev: 1, ino: 7, directory: true }]]))).toThrow(/lies on \/q itself/);
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
