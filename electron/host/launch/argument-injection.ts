// Servers that take folders on their command line or in an env var (server-filesystem's
// positional directories, say) get the granted folders through placeholders in their config:
//   an argument that is exactly ${roots}      -> one argument per folder
//   ${roots} inside a longer arg or env value -> the folders joined with the OS path delimiter
//   ${roots:SEP}                              -> the folders joined with SEP (e.g. ${roots:,})
// When the grants change, the server is restarted with the new values.
import path from 'node:path';
import type { TransportConfig } from '../../../shared/domain.js';
import { CodedError } from '../../../shared/result.js';

const WHOLE_ARG = '${roots}';
const PLACEHOLDER = /\$\{roots(?::([^}]*))?\}/g;
/** The same without `g`: test() keeps no lastIndex, so one object serves every call. */
const HAS_PLACEHOLDER = new RegExp(PLACEHOLDER.source);

export function usesRootPlaceholders(transport: TransportConfig): boolean {
  if (transport.type !== 'stdio') return false;
  // Asked at every change of the server's folders, before it is told (BENCHMARKS.md section 2).
  const has = (value: string) => HAS_PLACEHOLDER.test(value);
  return transport.args.some(has) || Object.values(transport.env).some(has);
}

/**
 * Folders joined into one value must split back into the same folders: a folder whose name holds
 * the separator (`Smith, John` with `${roots:,}`) would reach the server as two. There is no escape
 * every server would undo, so such a join is refused, naming the folder and the separator.
 */
export function joinFolders(folders: readonly string[], separator: string): string {
  if (separator === '') {
    throw new CodedError('invalid-input', '${roots:} has an empty separator: the folders could not be told apart.');
  }
  const clash = folders.find((folder) => folder.includes(separator));
  if (clash !== undefined) {
    throw new CodedError(
      'invalid-input',
      `The folder "${clash}" contains the separator "${separator}" that joins the folders: the server would read it as ` +
        'two folders, so it was not started. Use ${roots} as a whole argument (one argument per folder) or another separator.',
    );
  }
  return folders.join(separator);
}

/** Throws a CodedError ('invalid-input') when a joined placeholder cannot carry one of the folders. */
export function injectRoots(transport: TransportConfig, folders: readonly string[]): TransportConfig {
  if (transport.type !== 'stdio') return transport;
  const join = (value: string) =>
    value.replace(PLACEHOLDER, (_match, separator: string | undefined) => joinFolders(folders, separator ?? path.delimiter));
  return {
    ...transport,
    args: transport.args.flatMap((arg) => (arg === WHOLE_ARG ? [...folders] : [join(arg)])),
    env: Object.fromEntries(Object.entries(transport.env).map(([key, value]) => [key, join(value)])),
  };
}
