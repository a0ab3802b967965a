// Where one process's start goes, for the benchmark (BENCHMARKS.md section 12): with
// MCP_ROOTS_START_MARKS=1, named moments (ms since the process began) and the CPU used by then,
// written as one stderr line when the start is over. Unset, nothing is kept. The marks live on
// globalThis: the built CLI and the proxy's bundle each have their own copy of this module.
const KEY = Symbol.for('mcp-roots.start-marks');
type Marks = { name: string; at: number }[];
const marks: Marks | undefined = process.env.MCP_ROOTS_START_MARKS === '1' ? ((globalThis as Record<symbol, Marks>)[KEY] ??= []) : undefined;

export function startMark(name: string): void {
  marks?.push({ name, at: performance.now() });
}

/** `start-marks origin=<epoch ms> cpu=<ms> a=<ms> b=<ms> …`, or undefined when marks are off. */
export function startMarksLine(): string | undefined {
  if (!marks) return undefined;
  const { user, system } = process.cpuUsage();
  const at = marks.map(({ name, at }) => `${name}=${at.toFixed(1)}`).join(' ');
  return `start-marks origin=${performance.timeOrigin.toFixed(1)} cpu=${((user + system) / 1000).toFixed(1)} ${at}`;
}
