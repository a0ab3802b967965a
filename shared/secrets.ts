// Env values and HTTP headers may hold tokens: they leave the host only masked. A UI that sends
// the mask back means "keep the stored value".
import type { TransportConfig } from './domain.js';

export const SECRET_MASK = '••••••';

function maskValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(values).map((key) => [key, SECRET_MASK]));
}

export function maskTransport(transport: TransportConfig): TransportConfig {
  return transport.type === 'stdio'
    ? { ...transport, env: maskValues(transport.env) }
    : { ...transport, headers: maskValues(transport.headers) };
}

function keepMasked(next: Record<string, string>, previous: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(next).map(([key, value]) => [key, value === SECRET_MASK ? (previous[key] ?? '') : value]),
  );
}

/** Puts stored secrets back where an edited config still carries the mask. */
export function unmaskTransport(next: TransportConfig, previous: TransportConfig | undefined): TransportConfig {
  if (!previous) return next;
  if (next.type === 'stdio') {
    return { ...next, env: keepMasked(next.env, previous.type === 'stdio' ? previous.env : {}) };
  }
  return { ...next, headers: keepMasked(next.headers, previous.type !== 'stdio' ? previous.headers : {}) };
}
