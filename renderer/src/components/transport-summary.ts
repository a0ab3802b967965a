// One line that says how a server is started or reached, for lists and headers.
import type { TransportConfig } from '../../../shared/domain.js';

/** Paths up to this long are shown whole. */
const WHOLE_PATH = 32;

/** `/x/node_modules/@scope/pkg/dist/index.js` says less than `@scope/pkg`. */
function shortArg(arg: string): string {
  const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(arg);
  if (match?.[1]) return match[1].replace(/\\/g, '/');
  // A URL (postgresql://, https://) is kept whole: its scheme and host are what it says.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return arg;
  const quoted = (text: string) => (/\s/.test(text) ? `"${text}"` : text);
  // A path is a folder the server may be given: it must still read as the full path it is.
  if (/^([\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(arg)) return quoted(shortPath(arg));
  return quoted(arg);
}

/**
 * A long path keeps its start (so `/home/me/private` never reads as the relative `me/private`)
 * and its last two parts, with an ellipsis for what lies between: `/home/…/me/private`.
 */
function shortPath(path: string): string {
  // A UNC share (`\\\\server\\share\\…`) is rare enough to show whole.
  if (path.length <= WHOLE_PATH || /^[\\/]{2}/.test(path)) return path;
  const separator = path.includes('/') ? '/' : '\\';
  const parts = path.split(/[\\/]/);
  // `/a/b` splits into ['', 'a', 'b']; a drive or `~` is the first part itself.
  const head = parts[0] === '' ? `${separator}${parts[1] ?? ''}` : parts[0];
  const headCount = parts[0] === '' ? 2 : 1;
  if (parts.length <= headCount + 2) return path;
  return [head, '…', ...parts.slice(-2)].join(separator);
}

export function transportSummary(transport: TransportConfig): string {
  if (transport.type !== 'stdio') return transport.url;
  const program = transport.command.split(/[\\/]/).pop() ?? transport.command;
  return [program, ...transport.args.map(shortArg)].join(' ');
}

export function transportFull(transport: TransportConfig): string {
  if (transport.type !== 'stdio') return transport.url;
  return [transport.command, ...transport.args].map((part) => (/\s/.test(part) ? `"${part}"` : part)).join(' ');
}
