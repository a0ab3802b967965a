// The hosts a network-on server may reach (the registry's `allowHosts`, issue #28): each entry is
// a name (`api.github.com`), a wildcard over a name's subdomains (`*.github.com`), or an address
// (`192.0.2.7`, `[2001:db8::7]`), each with an optional port (`api.github.com:443`). One parser
// for the CLI, the UI and the registry's schema, and one matcher for the app's DNS answerer.
// Absent list: any host (the network "on" as before); empty list: no host at all.

export type HostPattern =
  /** A name, or with `wildcard` every name below it (not the name itself, as TLS wildcards). */
  | { kind: 'name'; name: string; wildcard: boolean; port?: number | undefined; text: string }
  /** An address: a connection to it needs no lookup (nothing to resolve, nothing to record of a name). */
  | { kind: 'address'; address: string; family: 4 | 6; port?: number | undefined; text: string };

export type ParsedHost = { ok: true; pattern: HostPattern } | { ok: false; error: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** At most this many entries per server: each allowed name costs an answer's addresses in its rules. */
export const MAX_ALLOWED_HOSTS = 256;

function isIpv6(text: string): boolean {
  // An embedded IPv4 tail (::ffff:192.0.2.7) counts as two groups.
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (tail.includes('.') && !IPV4.test(tail)) return false;
  const plain = tail.includes('.') ? `${text.slice(0, text.lastIndexOf(':') + 1)}0:0` : text;
  const halves = plain.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return false;
  return halves.length === 2 ? groups.length <= 7 : groups.length === 8;
}

function parsePort(text: string, whole: string): number | string {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) return `"${whole}": the port after ":" is a whole number between 1 and 65535`;
  return Number(text);
}

/** One entry as typed by a person or found in config.json; lowercased, with the reason when refused. */
export function parseHostPattern(input: string): ParsedHost {
  const text = input.trim().toLowerCase();
  if (!text) return { ok: false, error: 'a host is a name like api.github.com, a wildcard like *.github.com, or an address, each with an optional :PORT' };
  if (/\s|\/|@|\?|#/.test(text)) return { ok: false, error: `"${input}": a host is a bare name or address, not a URL (no scheme, path, user or spaces)` };
  // An IPv6 address with a port is written in brackets, as in a URL.
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(text);
  if (bracketed) {
    const [, address = '', portText] = bracketed;
    if (!isIpv6(address)) return { ok: false, error: `"${input}": not an IPv6 address in brackets` };
    if (address === '::1') return { ok: false, error: `"${input}": this computer's own services are opened by port, with --allow-local PORT` };
    const port = portText === undefined ? undefined : parsePort(portText, input);
    if (typeof port === 'string') return { ok: false, error: port };
    return { ok: true, pattern: { kind: 'address', address, family: 6, port, text: port ? `[${address}]:${port}` : `[${address}]` } };
  }
  if ((text.match(/:/g) ?? []).length > 1) {
    if (!isIpv6(text)) return { ok: false, error: `"${input}": not an IPv6 address (write one with a port as [ADDRESS]:PORT)` };
    if (text === '::1') return { ok: false, error: `"${input}": this computer's own services are opened by port, with --allow-local PORT` };
    return { ok: true, pattern: { kind: 'address', address: text, family: 6, text: `[${text}]` } };
  }
  const [hostText = '', portText] = text.split(':');
  const port = portText === undefined ? undefined : parsePort(portText, input);
  if (typeof port === 'string') return { ok: false, error: port };
  const suffix = port ? `:${port}` : '';
  const local = `"${input}": this computer's own services are opened by port, with --allow-local PORT (the loopback is never a host of the list)`;
  if (hostText === 'localhost' || hostText.endsWith('.localhost') || /^127\./.test(hostText)) return { ok: false, error: local };
  if (IPV4.test(hostText)) return { ok: true, pattern: { kind: 'address', address: hostText, family: 4, port, text: `${hostText}${suffix}` } };
  const wildcard = hostText.startsWith('*.');
  const name = (wildcard ? hostText.slice(2) : hostText).replace(/\.$/, '');
  if (name.includes('*')) return { ok: false, error: `"${input}": a wildcard is "*." at the start only, as in *.github.com` };
  const labels = name.split('.');
  if (name.length > 253 || !labels.every((label) => LABEL.test(label))) return { ok: false, error: `"${input}": not a host name (letters, digits and "-" between dots)` };
  if (wildcard && labels.length < 2) return { ok: false, error: `"${input}": a wildcard needs a domain of two labels at least (*.example.com), never a whole top-level domain` };
  if (/^\d+$/.test(labels.at(-1) ?? '')) return { ok: false, error: `"${input}": not a host name or an IPv4 address` };
  return { ok: true, pattern: { kind: 'name', name, wildcard, port, text: `${wildcard ? '*.' : ''}${name}${suffix}` } };
}

/** Every entry of a list, or the first reason one is refused (and the list as the registry keeps it: normalised, in order, once each). */
export function parseHostList(entries: readonly string[]): { ok: true; patterns: HostPattern[] } | { ok: false; error: string } {
  const patterns: HostPattern[] = [];
  for (const entry of entries) {
    const parsed = parseHostPattern(entry);
    if (!parsed.ok) return parsed;
    if (!patterns.some((known) => known.text === parsed.pattern.text)) patterns.push(parsed.pattern);
  }
  if (patterns.length > MAX_ALLOWED_HOSTS) return { ok: false, error: `at most ${MAX_ALLOWED_HOSTS} allowed hosts per server` };
  return { ok: true, patterns };
}

/** Whether a looked-up name (any case, with or without its final dot) falls under a name pattern. */
export function nameMatches(pattern: HostPattern, lookedUp: string): boolean {
  if (pattern.kind !== 'name') return false;
  const name = lookedUp.toLowerCase().replace(/\.$/, '');
  return pattern.wildcard ? name.endsWith(`.${pattern.name}`) : name === pattern.name;
}

/** The ports a name may be reached at: 'any', a set of ports, or undefined when no entry allows it. */
export function portsForName(patterns: readonly HostPattern[], name: string): 'any' | Set<number> | undefined {
  const ports = new Set<number>();
  let matched = false;
  for (const pattern of patterns) {
    if (!nameMatches(pattern, name)) continue;
    if (pattern.port === undefined) return 'any';
    matched = true;
    ports.add(pattern.port);
  }
  return matched ? ports : undefined;
}
