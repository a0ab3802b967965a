// An `npx`/`uvx` server's first start installs its package before anything runs (12-13 s for
// server-filesystem), and a host saw nothing meanwhile. The proxy says what it is doing when the
// preparation begins and how long it has taken every few seconds, on stderr (hosts keep it as the
// server's log) and in its status file.
import path from 'node:path';
import type { TransportConfig } from '../../shared/domain.js';
import { redactSecretValues } from '../host/registry/secret-codec.js';

/** Commands whose package is found or installed before the server runs (sandbox/package-launch.ts). */
const PACKAGE_LAUNCHERS = new Set(['npx', 'uvx']);

export const PROGRESS_EVERY_MS = 3000;

/** Reports the preparation of a package-launched server; returns the function that ends the reports (with `undefined`). */
export function reportPreparation(transport: TransportConfig, report: (text: string | undefined) => void, everyMs = PROGRESS_EVERY_MS): () => void {
  if (transport.type !== 'stdio') return () => undefined;
  const launcher = path.basename(transport.command).replace(/\.(cmd|exe)$/i, '');
  if (!PACKAGE_LAUNCHERS.has(launcher)) return () => undefined;
  const line = redactSecretValues([launcher, ...transport.args].join(' '), transport);
  const started = Date.now();
  report(`preparing its package (${line}): a first start installs it, which can take a while`);
  const timer = setInterval(() => report(`still preparing its package (${Math.round((Date.now() - started) / 1000)} s)`), everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    report(undefined);
  };
}
