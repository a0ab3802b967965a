// An `npx`/`uvx` server's first start installs its package before anything runs (12-13 s for
// server-filesystem), and a host saw nothing meanwhile. The proxy says what it is doing when the
// preparation begins and how long it has taken every few seconds, on stderr (hosts keep it as the
// server's log) and in its status file.
import type { TransportConfig } from '../../shared/domain.js';
import { packageLaunchLine } from '../host/launch/package-launch-line.js';

export const PROGRESS_EVERY_MS = 3000;

/**
 * Said only once a preparation has taken this long: a package already installed is ready well
 * within it, and the proxy said "a first start installs it" at every start, cached or not (#30).
 */
export const QUIET_MS = 1000;

/** Reports the preparation of a package-launched server; returns the function that ends the reports (with `undefined`). */
export function reportPreparation(transport: TransportConfig, report: (text: string | undefined) => void, everyMs = PROGRESS_EVERY_MS, quietMs = QUIET_MS): () => void {
  const line = packageLaunchLine(transport);
  if (line === undefined) return () => undefined;
  const started = Date.now();
  let said = false;
  let timer: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    said = true;
    report(`preparing its package (${line}): a first start installs it, which can take a while`);
    timer = setInterval(() => report(`still preparing its package (${Math.round((Date.now() - started) / 1000)} s)`), everyMs);
    timer.unref();
  }, quietMs);
  first.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
    if (said) report(undefined);
  };
}
