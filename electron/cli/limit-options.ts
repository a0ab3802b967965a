// `servers set --max-tasks N --memory-mib N --tmp-mib N --max-files N`: a confined server's limits
// (shared/server-limits.ts has the defaults and bounds). `default` takes a setting back to its default.
import type { Command } from 'commander';
import { LIMIT_RANGES, limitProblem, type ServerLimitName, type ServerLimits } from '../../shared/server-limits.js';
import { UsageError } from './exit-codes.js';

/** Each limit's flag and its words; one place, for the help and the messages. */
export const LIMIT_FLAGS: Record<ServerLimitName, { flag: string; option: string; what: string }> = {
  tasks: { flag: '--max-tasks', option: 'maxTasks', what: 'processes and threads at once' },
  memoryMiB: { flag: '--memory-mib', option: 'memoryMib', what: 'memory, MiB' },
  tmpMiB: { flag: '--tmp-mib', option: 'tmpMib', what: 'its /tmp and TMPDIR, MiB' },
  files: { flag: '--max-files', option: 'maxFiles', what: 'open files per process' },
};

export function limitOptions(command: Command): void {
  for (const [name, { flag, what }] of Object.entries(LIMIT_FLAGS) as [ServerLimitName, (typeof LIMIT_FLAGS)[ServerLimitName]][]) {
    const { min, max, default: fallback } = LIMIT_RANGES[name];
    command.option(`${flag} <n>`, `sandbox limit: ${what} (${min}-${max}, default ${fallback}; 'default' resets it)`);
  }
}

/** The limits after the flags given, and what each flag changed; undefined when none was given. */
export function editLimits(current: ServerLimits | undefined, options: Record<string, unknown>): { limits: ServerLimits; changes: string[] } | undefined {
  const limits: ServerLimits = { ...current };
  const changes: string[] = [];
  for (const [name, { flag, option }] of Object.entries(LIMIT_FLAGS) as [ServerLimitName, (typeof LIMIT_FLAGS)[ServerLimitName]][]) {
    const raw = options[option];
    if (typeof raw !== 'string') continue;
    if (raw.trim() === 'default') {
      delete limits[name];
      changes.push(`${flag.slice(2)} back to its default (${LIMIT_RANGES[name].default})`);
      continue;
    }
    const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
    const problem = limitProblem(name, value);
    if (problem) throw new UsageError(`${flag} ${raw}: ${problem.replace(name, 'it')}`);
    limits[name] = value;
    changes.push(`${flag.slice(2)} ${value}`);
  }
  return changes.length > 0 ? { limits, changes } : undefined;
}
