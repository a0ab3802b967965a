// Tells when a running confined server reaches one of its limits, so the person learns why it
// misbehaves ("it hit its task limit") instead of guessing. The limits themselves are the kernel's
// (resource-limits.ts); this only looks, from outside, once a second:
// - with a cgroup, its own counters, which the kernel keeps: forks refused by pids.max, memory cap hits;
// - otherwise what /proc shows: the user's task count at the rlimit (it counts them all), a
//   process's data size or open files near its rlimit;
// - its /tmp (and TMPDIR in it) full, by statfs through /proc/<pid>/root.
// A sample can miss a peak that falls back within a second (a counter cannot). Each limit is told
// once per start: a server that stays at its limit is not reported every second.
import fs from 'node:fs';
import { userTasks, type ResourceLimits } from './resource-limits.js';
import { confinedProcesses } from './self-check.js';
import { memoryCapHits, refusedForks } from './server-cgroup.js';
import type { ActivityEvent } from '../../../shared/activity-event.js';

export type LimitName = 'tasks' | 'memory' | 'tmp' | 'files';

export interface LimitHit {
  limit: LimitName;
  /** What the activity log and the proxy's stderr say (worded by shared/i18n). */
  event: ActivityEvent;
}

/** Within this share of a limit counts as reaching it: a process refused its next allocation sits just below. */
const NEAR = 0.9;
export const WATCH_INTERVAL_MS = 1000;

/** The event for each limit, one place (worded by shared/i18n). */
export function limitHitEvent(limit: LimitName, limits: ResourceLimits): ActivityEvent {
  const mib = (bytes: number) => Math.round(bytes / 1024 ** 2);
  switch (limit) {
    case 'tasks':
      return { code: 'limit-tasks', params: { count: limits.taskLimit } };
    case 'memory':
      return { code: 'limit-memory', params: { mib: mib(limits.dataBytes) } };
    case 'tmp':
      return { code: 'limit-tmp', params: { mib: mib(limits.tmpBytes) } };
    case 'files':
      return { code: 'limit-files', params: { count: limits.files } };
  }
}

function status(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}

const field = (text: string, name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);

function openFiles(pid: number): number {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** Which limits the server is at now (its processes below the spawned `pid`). Exported for tests. */
export function limitsReached(pid: number, limits: ResourceLimits, baseline: { forks: number; memory: number }): Set<LimitName> {
  const reached = new Set<LimitName>();
  const processes = confinedProcesses(pid);
  if (processes.length === 0) return reached;
  const statuses = processes.map(status);
  const tasks = statuses.reduce((sum, text) => sum + field(text, 'Threads'), 0);
  // Without a cgroup the rlimit counts the whole user's tasks (resource-limits.ts): that count, against it.
  const atTasks = limits.cgroup
    ? refusedForks(limits.cgroup) > baseline.forks
    : limits.tasks !== undefined && limits.uid !== undefined
      ? (userTasks(limits.uid) ?? 0) >= limits.tasks - 2
      : tasks >= limits.taskLimit * NEAR;
  if (atTasks) reached.add('tasks');
  // VmData is in kB.
  const data = Math.max(...statuses.map((text) => field(text, 'VmData') * 1024));
  if (data >= limits.dataBytes * NEAR || (limits.cgroup && memoryCapHits(limits.cgroup) > baseline.memory)) reached.add('memory');
  if (Math.max(...processes.map(openFiles)) >= limits.files * NEAR) reached.add('files');
  try {
    const tmp = fs.statfsSync(`/proc/${processes[0]}/root/tmp`);
    // Full: under 1% (at least 64 KiB) left.
    if (tmp.bavail * tmp.bsize <= Math.max(tmp.blocks * tmp.bsize * 0.01, 64 * 1024)) reached.add('tmp');
  } catch {
    // Gone between the walk and the look.
  }
  return reached;
}

/** Watches the server below `pid` until the returned function is called; `onHit` once per limit. */
export function watchLimits(pid: number, limits: ResourceLimits, onHit: (hit: LimitHit) => void, intervalMs = WATCH_INTERVAL_MS): () => void {
  const told = new Set<LimitName>();
  // Counters from an earlier start of the same server (its cgroup is reused) are not this start's.
  const baseline = { forks: limits.cgroup ? refusedForks(limits.cgroup) : 0, memory: limits.cgroup ? memoryCapHits(limits.cgroup) : 0 };
  const timer = setInterval(() => {
    for (const limit of limitsReached(pid, limits, baseline)) {
      if (told.has(limit)) continue;
      told.add(limit);
      onHit({ limit, event: limitHitEvent(limit, limits) });
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
