import { describe, expect, it } from 'vitest';
import { planBwrap, reachableInside, type BwrapPlanInput } from '../../../../electron/host/sandbox/bwrap-plan.js';
import type { HostLayout } from '../../../../electron/host/sandbox/host-layout.js';

const mergedUsr: HostLayout = {
  topLevel: [
    { path: '/bin', symlinkTo: 'usr/bin' },
    { path: '/lib', symlinkTo: 'usr/lib' },
    { path: '/lib64', symlinkTo: 'usr/lib64' },
  ],
  etc: ['/etc/passwd', '/etc/ssl', '/etc/resolv.conf'],
};

function input(overrides: Partial<BwrapPlanInput> = {}): BwrapPlanInput {
  return {
    bwrap: '/usr/bin/bwrap',
    disableUserns: true,
    layout: mergedUsr,
    command: '/usr/bin/node',
    args: ['/srv/server/dist/index.js', '--flag'],
    env: { API_KEY: 'k', HOME: '/home/me' },
    programPaths: ['/srv/server', '/usr/bin'],
    roots: [],
    home: '/data/sandbox/servers/s/home',
    tmp: '/data/sandbox/servers/s/tmp',
    dataDir: '/data',
    network: false,
    ...overrides,
  };
}

/** The (flag, path) pairs of the plan's mount operations, in order. */
function binds(args: string[]): [string, string][] {
  const result: [string, string][] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i] as string;
    if (flag === '--') break;
    if (/^--(ro-)?bind(-try|-fd)?$/.test(flag) || flag === '--symlink') {
      result.push([flag, args[i + 2] as string]);
      i += 2;
    } else if (['--tmpfs', '--proc', '--dev', '--remount-ro', '--chdir'].includes(flag)) {
      result.push([flag, args[i + 1] as string]);
      i += 1;
    }
  }
  return result;
}

describe('planBwrap', () => {
  it('recreates the program’s links where no mount shows them, after the mounts, and nowhere a mount holds the host’s folder', () => {
    const plan = planBwrap(
      input({
        roots: [{ path: '/home/me/project', mode: 'read-write' }],
        programLinks: [
          { path: '/home/me/tools/link', target: '../../../srv/server' },
          { path: '/tmp/wt/node_modules', target: '/srv/server/node_modules' },
          // In a root (the host's own link is there), at a layout link, inside a program folder, above a mount point.
          { path: '/home/me/project/link', target: '/srv/server' },
          { path: '/bin', target: 'usr/bin' },
          { path: '/srv/server/current', target: 'v2' },
          { path: '/home', target: '/elsewhere' },
          { path: '/home/me/tools/link', target: '../../../srv/server' },
        ],
      }),
    );
    const afterMounts = binds(plan.args).slice(binds(plan.args).findIndex(([, p]) => p === '/tmp/.private') + 1);
    expect(afterMounts.filter(([flag]) => flag === '--symlink')).toEqual([
      ['--symlink', '/home/me/tools/link'],
      ['--symlink', '/tmp/wt/node_modules'],
    ]);
    expect(binds(plan.args).filter(([flag, p]) => flag === '--symlink' && p === '/bin')).toHaveLength(1);
    const at = plan.args.indexOf('/home/me/tools/link');
    expect(plan.args[at - 1]).toBe('../../../srv/server');
    expect(at).toBeLessThan(plan.args.lastIndexOf('--remount-ro'));
    expect(plan.mounts.map((mount) => mount.path)).not.toContain('/home/me/tools/link');
  });

  it('unshares every namespace, network included when off, and runs the program after `--`', () => {
    const plan = planBwrap(input());
    expect(plan.command).toBe('/usr/bin/bwrap');
    expect(plan.args.slice(0, 8)).toEqual(['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--ro-bind']);
    expect(plan.args).not.toContain('--share-net');
    expect(plan.args.slice(plan.args.indexOf('--'))).toEqual(['--', '/usr/bin/node', '/srv/server/dist/index.js', '--flag']);
  });

  it('shares the network only when the server’s network is on, and omits --disable-userns for old bwrap', () => {
    const plan = planBwrap(input({ network: true, disableUserns: false }));
    expect(plan.args).toContain('--share-net');
    expect(plan.args).not.toContain('--disable-userns');
  });

  it("a private network: bwrap shares the holder's namespace and waits on --block-fd, the descriptor after the mounts' and the filter's", () => {
    const plan = planBwrap(input({ network: true, privateNetwork: true, roots: [{ path: '/home/me/code/app', mode: 'read-write' }], seccomp: true }));
    expect(plan.args).toContain('--share-net');
    const seccompFd = Number(plan.args[plan.args.indexOf('--seccomp') + 1]);
    expect(plan.blockFd).toBe(seccompFd + 1);
    expect(plan.args[plan.args.indexOf('--block-fd') + 1]).toBe(String(plan.blockFd));
    // Network off: no private network to wait for, whatever is asked.
    expect(planBwrap(input({ network: false, privateNetwork: true })).blockFd).toBeUndefined();
    expect(planBwrap(input({ network: true })).args).not.toContain('--block-fd');
  });

  it('binds the runtime read-only, recreates merged-/usr symlinks, and only the chosen /etc files', () => {
    const pairs = binds(planBwrap(input()).args);
    expect(pairs).toContainEqual(['--ro-bind', '/usr']);
    expect(pairs).toContainEqual(['--symlink', '/bin']);
    expect(pairs).toContainEqual(['--ro-bind-try', '/etc/ssl']);
    expect(pairs.some(([, p]) => p === '/etc')).toBe(false);
    expect(pairs).toContainEqual(['--proc', '/proc']);
    expect(pairs).toContainEqual(['--dev', '/dev']);
    expect(pairs).toContainEqual(['--tmpfs', '/tmp']);
    // The private temp folder at a short path: Unix socket paths below TMPDIR fit.
    expect(planBwrap(input()).args.join(' ')).toContain('--bind /data/sandbox/servers/s/tmp /tmp/.private');
  });

  it('binds a real (unmerged) /lib as a folder', () => {
    const pairs = binds(planBwrap(input({ layout: { topLevel: [{ path: '/lib', directory: true }], etc: [] } })).args);
    expect(pairs).toContainEqual(['--ro-bind-try', '/lib']);
  });

  it('binds the program read-only, skipping what the runtime or an outer program path covers', () => {
    const plan = planBwrap(input({ programPaths: ['/srv/server', '/srv/server/node_modules', '/usr/bin', '/opt/tool/bin'] }));
    const programs = plan.mounts.filter((mount) => mount.purpose === 'program');
    expect(programs).toEqual([
      { path: '/srv/server', writable: false, purpose: 'program' },
      { path: '/opt/tool/bin', writable: false, purpose: 'program' },
    ]);
  });

  it('binds each root at its own path, read-only or read-write per grant, parents before children', () => {
    const plan = planBwrap(
      input({
        roots: [
          { path: '/home/me/code/app/docs', mode: 'read-only' },
          { path: '/home/me/code/app', mode: 'read-write' },
          { path: '/mnt/photos', mode: 'read-only' },
        ],
      }),
    );
    const pairs = binds(plan.args).filter(([, p]) => p.startsWith('/home/me/code') || p.startsWith('/mnt'));
    expect(pairs).toEqual([
      ['--ro-bind-fd', '/mnt/photos'],
      ['--bind-fd', '/home/me/code/app'],
      ['--ro-bind-fd', '/home/me/code/app/docs'],
    ]);
  });

  it('mounts roots in one fixed order whatever order the grants come in (depth, then code unit, no locale)', () => {
    const roots = [
      { path: '/srv/b', mode: 'read-only' as const },
      { path: '/srv/B', mode: 'read-only' as const },
      { path: '/srv/a/x', mode: 'read-write' as const },
      { path: '/srv/a', mode: 'read-only' as const },
    ];
    const order = (list: typeof roots) => planBwrap(input({ roots: list })).mounts.filter((mount) => mount.purpose === 'root').map((mount) => mount.path);
    expect(order(roots)).toEqual(['/srv/B', '/srv/a', '/srv/b', '/srv/a/x']);
    expect(order([...roots].reverse())).toEqual(order(roots));
  });

  it('keeps the most permissive mode of a root granted twice', () => {
    const plan = planBwrap(input({ roots: [{ path: '/r', mode: 'read-only' }, { path: '/r', mode: 'read-write' }] }));
    expect(plan.mounts.filter((mount) => mount.purpose === 'root')).toEqual([{ path: '/r', writable: true, purpose: 'root' }]);
  });

  it('mounts roots after /tmp, so a root under /tmp is visible on the fresh tmpfs', () => {
    const pairs = binds(planBwrap(input({ roots: [{ path: '/tmp/project', mode: 'read-write' }] })).args);
    expect(pairs.findIndex(([, p]) => p === '/tmp/project')).toBeGreaterThan(pairs.findIndex(([, p]) => p === '/tmp'));
  });

  it('masks the app data folder when a root covers it, read-only, with the private folders on top', () => {
    const plan = planBwrap(input({ roots: [{ path: '/', mode: 'read-write' }] }));
    const pairs = binds(plan.args);
    const mask = pairs.findIndex(([flag, p]) => flag === '--tmpfs' && p === '/data');
    expect(mask).toBeGreaterThan(pairs.findIndex(([, p]) => p === '/'));
    expect(pairs.findIndex(([, p]) => p === '/data/sandbox/servers/s/home')).toBeGreaterThan(mask);
    expect(pairs).toContainEqual(['--remount-ro', '/data']);
    expect(pairs.at(-2)).toEqual(['--remount-ro', '/']);
  });

  it('does not mask the data folder when nothing exposes it', () => {
    const plan = planBwrap(input({ roots: [{ path: '/srv/data', mode: 'read-write' }] }));
    expect(plan.mounts.some((mount) => mount.purpose === 'mask')).toBe(false);
  });

  it('replaces HOME and TMPDIR with the private folders and keeps the rest of the environment', () => {
    const plan = planBwrap(input());
    expect(plan.env).toEqual({ API_KEY: 'k', HOME: '/data/sandbox/servers/s/home', TMPDIR: '/tmp/.private' });
  });

  it('starts in the server’s cwd when it is reachable inside, else in its private HOME', () => {
    expect(planBwrap(input({ cwd: '/srv/server' })).chdir).toBe('/srv/server');
    expect(planBwrap(input({ cwd: '/home/me/elsewhere' })).chdir).toBe('/data/sandbox/servers/s/home');
    expect(planBwrap(input({ cwd: '/tmp/not-a-root' })).chdir).toBe('/data/sandbox/servers/s/home');
    const granted = planBwrap(input({ cwd: '/home/me/code', roots: [{ path: '/home/me/code', mode: 'read-only' }] }));
    expect(granted.chdir).toBe('/home/me/code');
    expect(granted.args.slice(granted.args.indexOf('--chdir'), granted.args.indexOf('--chdir') + 2)).toEqual(['--chdir', '/home/me/code']);
  });

  it('never binds the user’s HOME or ~/.npm unless a grant says so', () => {
    const plan = planBwrap(input({ roots: [{ path: '/home/me/code', mode: 'read-write' }] }));
    const paths = plan.mounts.map((mount) => mount.path);
    expect(paths).not.toContain('/home/me');
    expect(paths.some((p) => p.startsWith('/home/me/.npm'))).toBe(false);
  });
});

describe('reachableInside', () => {
  const mounts = planBwrap(input({ roots: [{ path: '/tmp/granted', mode: 'read-write' }, { path: '/', mode: 'read-only' }] })).mounts;
  it('follows the deepest mount: granted yes, the masked data folder no, the empty /tmp no', () => {
    expect(reachableInside('/tmp/granted/x', mounts)).toBe(true);
    expect(reachableInside('/data/config.json', mounts)).toBe(false);
    expect(reachableInside('/data/sandbox/servers/s/home/.cache', mounts)).toBe(true);
    expect(reachableInside('/tmp/other', mounts)).toBe(false);
    expect(reachableInside('/home/me', mounts)).toBe(true);
    expect(reachableInside('/home/me', planBwrap(input()).mounts)).toBe(false);
  });
});

describe('planBwrap, hardened', () => {
  it('binds roots, programs and protected paths from descriptors, numbered from 3 in plan order, the seccomp filter last', () => {
    const plan = planBwrap(
      input({
        roots: [{ path: '/home/me/code/app', mode: 'read-write' }],
        protectedPaths: ['/home/me/code/app/.git/hooks', '/home/me/code/app/.vscode'],
        seccomp: true,
      }),
    );
    expect(plan.descriptors).toEqual(['/srv/server', '/home/me/code/app', '/home/me/code/app/.git', '/home/me/code/app/.vscode', '/home/me/code/app/.git/hooks']);
    const fdArgs = plan.args.flatMap((arg, i) => (/^--(ro-)?bind-fd$/.test(arg) ? [[arg, plan.args[i + 1], plan.args[i + 2]]] : []));
    expect(fdArgs).toEqual([
      ['--ro-bind-fd', '3', '/srv/server'],
      ['--bind-fd', '4', '/home/me/code/app'],
      ['--bind-fd', '5', '/home/me/code/app/.git'],
      ['--ro-bind-fd', '6', '/home/me/code/app/.vscode'],
      ['--ro-bind-fd', '7', '/home/me/code/app/.git/hooks'],
    ]);
    expect(plan.args.slice(plan.args.indexOf('--seccomp'), plan.args.indexOf('--seccomp') + 2)).toEqual(['--seccomp', '8']);
    // No path bind of anything a server could write: only the system runtime and the private folders.
    const pathBinds = binds(plan.args).filter(([flag]) => /^--(ro-)?bind(-try)?$/.test(flag)).map(([, p]) => p);
    expect(pathBinds.every((p) => p.startsWith('/usr') || p.startsWith('/etc') || p.startsWith('/data/sandbox') || p.startsWith('/proc') || p === '/tmp/.private')).toBe(true);
    expect(plan.args.join(' ')).toContain('--bind /data/sandbox/servers/s/tmp /tmp/.private');
  });

  it('pins every folder between a read-write root and the data folder, keeping the mode of the root over it', () => {
    const plan = planBwrap(input({ roots: [{ path: '/home/me', mode: 'read-write' }, { path: '/home/me/.config', mode: 'read-only' }], dataDir: '/home/me/.config/app/data' }));
    expect(plan.mounts.filter((mount) => mount.purpose === 'anchor')).toEqual([{ path: '/home/me/.config/app', writable: false, purpose: 'anchor' }]);
    expect(planBwrap(input({ roots: [{ path: '/home/me', mode: 'read-write' }], dataDir: '/home/me/.config/app/data' })).mounts.filter((m) => m.purpose === 'anchor')).toEqual([
      { path: '/home/me/.config', writable: true, purpose: 'anchor' },
      { path: '/home/me/.config/app', writable: true, purpose: 'anchor' },
    ]);
    // A read-only grant cannot rename anything: nothing to pin.
    expect(planBwrap(input({ roots: [{ path: '/home/me', mode: 'read-only' }], dataDir: '/home/me/.config/app/data' })).mounts.some((m) => m.purpose === 'anchor')).toBe(false);
  });

  it('holds a protected path read-only even where the same folder is granted read-write', () => {
    const plan = planBwrap(input({ roots: [{ path: '/p', mode: 'read-write' }, { path: '/p/.vscode', mode: 'read-write' }], protectedPaths: ['/p/.vscode'] }));
    const last = plan.mounts.filter((mount) => mount.path === '/p/.vscode').at(-1);
    expect(last).toEqual({ path: '/p/.vscode', writable: false, purpose: 'protected' });
  });

  it('makes /proc/sys read-only after the fresh /proc', () => {
    const args = planBwrap(input()).args;
    expect(args.indexOf('/proc/sys')).toBeGreaterThan(args.indexOf('--proc'));
    expect(args[args.indexOf('/proc/sys') - 1]).toBe('--ro-bind');
  });
});

describe('planBwrap for a bwrap before 0.8 (no --bind-fd, no --disable-userns)', () => {
  it('binds by path, with no descriptors, and the seccomp filter takes the first descriptor', () => {
    const plan = planBwrap(input({ disableUserns: false, bindFromDescriptors: false, roots: [{ path: '/home/me/code/app', mode: 'read-write' }], seccomp: true }));
    expect(plan.descriptors).toEqual([]);
    expect(plan.args.some((arg) => arg.endsWith('-fd'))).toBe(false);
    expect(binds(plan.args)).toContainEqual(['--bind', '/home/me/code/app']);
    expect(plan.args[plan.args.indexOf('--seccomp') + 1]).toBe('3');
  });
});
