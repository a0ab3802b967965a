// Once its host has gone, a proxy has nobody to work for: the process ends within a few seconds
// whatever it was doing. The orderly close (roots-proxy.ts) normally gets there first; this is the
// net under it, for whatever still holds the event loop open (a start that never returns, a timer).
// Without it a proxy, its bwrap and its server were seen alive hours after their host.

/**
 * Long enough for the transport's own escalation on a server that ignores both the end of stdin
 * and SIGTERM (2 s, then 2 s, then SIGKILL), with room for a loaded machine.
 */
export const EXIT_DEADLINE_MS = 6_000;

export interface ExitDeadlineOptions {
  /** The server processes that may still run: killed before the proxy goes (bwrap's die-with-parent covers only confined ones). */
  serverPids(): readonly number[];
  log(line: string): void;
  exit(code: number): void;
  kill?: (pid: number, signal: NodeJS.Signals) => void;
  afterMs?: number;
}

/** Arms the deadline; the timer does not itself keep the process alive. Returns a disarm function. */
export function armExitDeadline(options: ExitDeadlineOptions): () => void {
  const afterMs = options.afterMs ?? EXIT_DEADLINE_MS;
  const kill = options.kill ?? ((pid, signal) => process.kill(pid, signal));
  const timer = setTimeout(() => {
    const pids = options.serverPids();
    options.log(`still running ${afterMs} ms after the host left: ending ${pids.length > 0 ? `the server (pid ${pids.join(', ')}) and ` : ''}the proxy`);
    for (const pid of pids) {
      try {
        kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    options.exit(0);
  }, afterMs);
  timer.unref();
  return () => clearTimeout(timer);
}
