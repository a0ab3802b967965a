// Servers that take folders on their command line or in an env var (server-filesystem's
// positional directories, say) get the granted folders through placeholders in their config:
//   an argument that is exactly ${roots}      -> one argument per folder
//   ${roots} inside a longer arg or env value -> the folders joined with the OS path delimiter
//   ${roots:SEP}                              -> the folders joined with SEP (e.g. ${roots:,})
// When the grants change, the server is restarted with the new values.
import path from 'node:path';
import type { TransportConfig } from '../../shared/domain.js';

const WHOLE_ARG = '${roots}';
const PLACEHOLDER = /\$\{roots(?::([^}]*))?\}/g;

export function usesRootPlaceholders(transport: TransportConfig): boolean {
  if (transport.type !== 'stdio') return false;
  const has = (value: string) => new RegExp(PLACEHOLDER.source).test(value);
  return transport.args.some(has) || Object.values(transport.env).some(has);
}

export function injectRoots(transport: TransportConfig, folders: readonly string[]): TransportConfig {
  if (transport.type !== 'stdio') return transport;
  const join = (value: string) =>
    value.replace(PLACEHOLDER, (_match, separator: string | undefined) => folders.join(separator ?? path.delimiter));
  return {
    ...transport,
    args: transport.args.flatMap((arg) => (arg === WHOLE_ARG ? [...folders] : [join(arg)])),
    env: Object.fromEntries(Object.entries(transport.env).map(([key, value]) => [key, join(value)])),
  };
}
