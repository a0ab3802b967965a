// A proxy works for the process that started it (its host). Normally the host's end closes the
// proxy's stdin and the proxy goes (run-proxy.ts); but where another process still holds that stdin
// open (a shell wrapper's child, a second copy of the descriptor), the end never comes, and a proxy
// whose host was killed lived on, adopted by PID 1, with its server (94 s and counting; #27).
// Linux's PR_SET_PDEATHSIG is not reachable from Node, and a pidfd would need a native addon: the
// parent is read again once a second instead (process.ppid asks the kernel each time). A changed
// parent means the host is gone.

export const PARENT_CHECK_MS = 1000;

/** Calls `gone` once when this process's parent changes. The timer keeps nothing alive; returns the stop. */
export function watchParent(gone: (formerParent: number) => void, options: { intervalMs?: number; ppid?: () => number } = {}): () => void {
  const ppid = options.ppid ?? (() => process.ppid);
  const parent = ppid();
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    gone(parent);
  }, options.intervalMs ?? PARENT_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
