// An `npx`/`uvx` server's first start installs its package before anything runs (12-13 s for
// server-filesystem), and a host saw nothing meanwhile. The proxy says what it is doing when the
// preparation begins and how long it has taken every few seconds, on stderr (hosts keep it as the
// server's log) and in its status file.
import type { TransportConfig } from '../../shared/domain.js';
import { packageLaunchLine } from '../host/launch/package-launch-line.js';

export const PROGRESS_EVERY_MS = 3000;

/** Reports the preparation of a package-launched server; returns the function that ends the reports (with `undefined`). */
export function reportPreparation(transport: TransportConfig, report: (text: string | undefined) => void, everyMs = PROGRESS_EVERY_MS): () => void {
  const line = packageLaunchLine(transport);
  if (line === undefined) return () => undefined;
  const started = Date.now();
  // Said once it takes long (a first start installs the package; a later one finds it in seconds):
  // not "installs" on every start, which was untrue for a cached one (#30 item 8).
  report(`preparing its package (${line})`);
  const timer = setInterval(() => report(`still preparing its package (${Math.round((Date.now() - started) / 1000)} s: a first start installs it, which can take a while)`), everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    report(undefined);
  };
}
