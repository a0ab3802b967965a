// Which servers have their package prepared before they run (npx, uvx: found or installed outside
// the sandbox first, sandbox/package-launch.ts), named by their command line as a person would
// recognise it. The app shows it while the preparation runs (server-connection.ts); the proxy says
// it on stderr (proxy/preparation-progress.ts).
import path from 'node:path';
import type { TransportConfig } from '../../../shared/domain.js';
import { redactSecretValues } from '../registry/secret-codec.js';

/** Commands whose package is found or installed before the server runs. */
const PACKAGE_LAUNCHERS = new Set(['npx', 'uvx']);

/** The command line, secrets redacted, of a server whose package is prepared first; undefined for any other. */
export function packageLaunchLine(transport: TransportConfig): string | undefined {
  if (transport.type !== 'stdio') return undefined;
  const launcher = path.basename(transport.command).replace(/\.(cmd|exe)$/i, '');
  if (!PACKAGE_LAUNCHERS.has(launcher)) return undefined;
  return redactSecretValues([launcher, ...transport.args].join(' '), transport);
}
