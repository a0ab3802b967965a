// A confined server's limits, as the person sets them (per server) and every UI shows them: the
// defaults, the bounds a setting must keep to, and the effective values. Plain data only: the host
// decides how each is enforced (electron/host/sandbox/resource-limits.ts).

/** Each limit a person may set for one server; a missing one takes its default. */
export interface ServerLimits {
  /** Processes and threads the server may run at once. */
  tasks?: number | undefined;
  /** Memory, in MiB: each process's data (heap) size, and the whole server's where a cgroup enforces it. */
  memoryMiB?: number | undefined;
  /** Its /tmp and TMPDIR (one memory-backed folder), in MiB. */
  tmpMiB?: number | undefined;
  /** Open files per process. */
  files?: number | undefined;
}

export type ServerLimitName = keyof ServerLimits;

/**
 * Defaults and bounds, one place. The minimums keep a server startable (Node alone runs ~11 threads
 * and maps ~60 MiB of data); the maximums keep a typo from meaning "unlimited".
 */
export const LIMIT_RANGES: Record<ServerLimitName, { min: number; max: number; default: number }> = {
  tasks: { min: 16, max: 65_536, default: 1024 },
  memoryMiB: { min: 128, max: 1_048_576, default: 8192 },
  tmpMiB: { min: 8, max: 65_536, default: 512 },
  files: { min: 64, max: 1_048_576, default: 4096 },
};

export const LIMIT_NAMES = Object.keys(LIMIT_RANGES) as ServerLimitName[];

/** Every limit's value for a server: its own setting where it has one, else the default. */
export function effectiveLimits(limits: ServerLimits | undefined): Required<{ [K in ServerLimitName]: number }> {
  const value = (name: ServerLimitName) => limits?.[name] ?? LIMIT_RANGES[name].default;
  return { tasks: value('tasks'), memoryMiB: value('memoryMiB'), tmpMiB: value('tmpMiB'), files: value('files') };
}

/** Why a value cannot be a limit, in English (the schema and the UI both say it), or undefined when it can. */
export function limitProblem(name: ServerLimitName, value: unknown): string | undefined {
  const { min, max } = LIMIT_RANGES[name];
  if (typeof value !== 'number' || !Number.isInteger(value)) return `${name} must be a whole number`;
  if (value < min || value > max) return `${name} must be between ${min} and ${max}`;
  return undefined;
}
