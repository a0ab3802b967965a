// Per-server limits: what is asked of prlimit, and how the self-check reads what is in force.
import { describe, expect, it } from 'vitest';
import { planBwrap } from '../../../../electron/host/sandbox/bwrap-plan.js';
import { machineTasks, prlimitPrefix, readLimit, resourceLimits, TASK_MARGIN } from '../../../../electron/host/sandbox/resource-limits.js';

const PROC_LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max data size             8589934592           8589934592           bytes
Max processes             1218                 1218                 processes
`;

describe('resource limits', () => {
  it('limits tasks to the machine’s count now plus a margin, except for root, whose tasks the kernel never limits', () => {
    expect(machineTasks('0.52 0.58 0.59 3/1159 24046\n')).toBe(1159);
    expect(resourceLimits({ uid: 1000 }).tasks).toBeGreaterThan(TASK_MARGIN);
    expect(resourceLimits({ uid: 0 }).tasks).toBeUndefined();
  });

  it('puts prlimit in front of bwrap, the same pid, and caps /tmp inside', () => {
    const limits = { prlimit: '/usr/bin/prlimit', tasks: 2000, dataBytes: 1024, tmpBytes: 4096 };
    expect(prlimitPrefix(limits)).toEqual(['/usr/bin/prlimit', '--nproc=2000', '--data=1024', '--']);
    expect(prlimitPrefix({ ...limits, tasks: undefined })).toEqual(['/usr/bin/prlimit', '--data=1024', '--']);
    const plan = planBwrap({
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
    expect(plan.command).toBe('/usr/bin/prlimit');
    expect(plan.args.slice(0, 4)).toEqual(['--nproc=2000', '--data=1024', '--', '/usr/bin/bwrap']);
    expect(plan.args.slice(plan.args.indexOf('--size'), plan.args.indexOf('--size') + 4)).toEqual(['--size', '4096', '--tmpfs', '/tmp']);
  });

  it('reads the soft limits of /proc/<pid>/limits', () => {
    expect(readLimit(PROC_LIMITS, 'Max data size')).toBe(8589934592);
    expect(readLimit(PROC_LIMITS, 'Max processes')).toBe(1218);
    expect(readLimit(PROC_LIMITS, 'Max cpu time')).toBeUndefined();
  });
});
