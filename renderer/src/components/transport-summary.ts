// One line that says how a server is started or reached, for lists and headers.
import type { TransportConfig } from '../../../shared/domain.js';

/** `/x/node_modules/@scope/pkg/dist/index.js` says less than `@scope/pkg`. */
function shortArg(arg: string): string {
  const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(arg);
  if (match?.[1]) return match[1].replace(/\\/g, '/');
  // A URL (postgresql://, https://) is kept whole: its scheme and host are what it says.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return arg;
  // Only a path is shortened, to its last two parts.
  if (/^([\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(arg)) return arg.split(/[\\/]/).slice(-2).join('/');
  return /\s/.test(arg) ? `"${arg}"` : arg;
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
