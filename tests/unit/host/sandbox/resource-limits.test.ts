// Per-server limits: what is asked of prlimit and the cgroup, and how the self-check reads what is in force.
import { describe, expect, it } from 'vitest';
import { planBwrap } from '../../../../electron/host/sandbox/bwrap-plan.js';
import { limitsPrefix, machineTasks, readLimit, resourceLimits, userTasks } from '../../../../electron/host/sandbox/resource-limits.js';
import { LIMIT_RANGES } from '../../../../shared/server-limits.js';

const PROC_LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max data size             8589934592           8589934592           bytes
Max processes             1218                 1218                 processes
`;

const noCgroup = () => undefined;
const aCgroup = () => ({ pids: '/sys/fs/cgroup/pids/mcp-roots-s', memory: '/sys/fs/cgroup/memory/mcp-roots-s', version: 1 as const });

function plan(limits: ReturnType<typeof resourceLimits>) {
  return planBwrap({
    bwrap: '/usr/bin/bwrap',
    disableUserns: true,
    layout: { topLevel: [], etc: [] },
    command: '/usr/bin/node',
    args: [],
    env: {},
    programPaths: [],
    roots: [],
    home: '/data/h',
    tmp: '/data/t',
    dataDir: '/data',
    network: false,
    limits,
  });
}

describe('resource limits', () => {
  it('without a cgroup, limits tasks to the user’s count now plus the setting, except for root, whose tasks the kernel never limits', () => {
    expect(machineTasks('0.52 0.58 0.59 3/1159 24046\n')).toBe(1159);
    expect(resourceLimits({ uid: 1000, cgroup: noCgroup, serverKey: 's' }).tasks).toBe((userTasks(1000) as number) + LIMIT_RANGES.tasks.default);
    // A uid that is not root (this test may run as root): its own count now, not the machine's, plus the setting.
    const other = 4321;
    const set = resourceLimits({ uid: other, cgroup: noCgroup, serverKey: 's', settings: { tasks: 64 } }).tasks as number;
    expect(set).toBe((userTasks(other) as number) + 64);
    expect(userTasks(process.getuid?.() as number)).toBeGreaterThanOrEqual(1);
    expect(resourceLimits({ uid: 0, cgroup: noCgroup, serverKey: 's' }).tasks).toBeUndefined();
  });

  it('with a cgroup (root too), the task limit is its pids.max: no rlimit of the whole user', () => {
    const limits = resourceLimits({ uid: 0, cgroup: aCgroup, serverKey: 's', settings: { tasks: 64 } });
    expect(limits).toMatchObject({ taskLimit: 64, tasks: undefined, cgroup: aCgroup() });
  });

  it('takes each setting, the defaults where there is none', () => {
    const set = resourceLimits({ uid: 1000, cgroup: noCgroup, settings: { memoryMiB: 256, tmpMiB: 32, files: 128 } });
    expect(set).toMatchObject({ dataBytes: 256 * 1024 ** 2, tmpBytes: 32 * 1024 ** 2, files: 128 });
    const defaults = resourceLimits({ uid: 1000, cgroup: noCgroup });
    expect(defaults).toMatchObject({ dataBytes: 8 * 1024 ** 3, tmpBytes: 512 * 1024 ** 2, files: 4096, taskLimit: 1024 });
  });

  it('joins the cgroup first, then prlimit, then bwrap: the same pid, inherited by all inside; /tmp capped and TMPDIR in it', () => {
    const limits = { prlimit: '/usr/bin/prlimit', taskLimit: 64, tasks: 2000, dataBytes: 1024, tmpBytes: 4096, files: 256 };
    expect(limitsPrefix(limits)).toEqual(['/usr/bin/prlimit', '--nproc=2000', '--data=1024', '--nofile=256', '--']);
    expect(limitsPrefix({ ...limits, tasks: undefined })).toEqual(['/usr/bin/prlimit', '--data=1024', '--nofile=256', '--']);
    const alone = plan(limits);
    expect(alone.command).toBe('/usr/bin/prlimit');
    expect(alone.args.slice(0, 5)).toEqual(['--nproc=2000', '--data=1024', '--nofile=256', '--', '/usr/bin/bwrap']);
    expect(alone.args.slice(alone.args.indexOf('--size'), alone.args.indexOf('--size') + 4)).toEqual(['--size', '4096', '--tmpfs', '/tmp']);
    // TMPDIR is a folder in that tmpfs, not the uncapped one on disk.
    expect(alone.args.join(' ')).toContain('--dir /tmp/.private');
    expect(alone.args).not.toContain('/data/t');

    const joined = plan({ ...limits, tasks: undefined, cgroup: aCgroup() });
    expect(joined.command).toBe('/bin/sh');
    const dashes = joined.args.indexOf('--');
    expect(joined.args.slice(2, dashes)).toEqual(['mcp-roots-cgroup', '/sys/fs/cgroup/pids/mcp-roots-s/cgroup.procs', '/sys/fs/cgroup/memory/mcp-roots-s/cgroup.procs']);
    expect(joined.args.slice(dashes + 1, dashes + 3)).toEqual(['/usr/bin/prlimit', '--data=1024']);
  });

  it('reads the soft limits of /proc/<pid>/limits', () => {
    expect(readLimit(PROC_LIMITS, 'Max data size')).toBe(8589934592);
    expect(readLimit(PROC_LIMITS, 'Max processes')).toBe(1218);
    expect(readLimit(PROC_LIMITS, 'Max cpu time')).toBeUndefined();
  });
});
