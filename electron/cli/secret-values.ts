// What the CLI shows of a server's config. Only what looks secret is masked: by the name of its env
// variable, header or flag (TOKEN, API_KEY, Authorization…), or by its shape (a bearer token, a
// GitHub or OpenAI key, a JWT, a private key), or because the desktop app stored it encrypted. The
// rest stays readable: a plain URL is shown whole, with only a password or secret query value hidden.
// The export (registry-export.ts) leaves out exactly the values masked here.
import type { TransportConfig } from '../../shared/domain.js';
import { SECRET_MASK } from '../../shared/secrets.js';

export { SECRET_MASK };

/** Shown for a value the desktop app encrypted with the OS keychain (this process cannot read it). */
export const SEALED_MASK = '(encrypted by the desktop app)';

const SEALED_PREFIX = 'enc:v1:';

const SECRET_NAME =
  /(token|secret|passw(or)?d|passphrase|pwd|api[-_]?key|apikey|access[-_]?key|private|credential|auth(?!ors?(?:$|[-_.]))|cookie|session|signature|(^|[-_.])sig($|[-_.])|(^|[-_.])key($|[-_.]))/i;

const SECRET_SHAPES = [
  /^(bearer|basic|token|bot)\s+\S{8,}/i,
  /^(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}$/,
  /^github_pat_\w{20,}$/,
  /^(sk|rk|pk)[-_](live|test|proj|ant)?[-_]?[A-Za-z0-9_-]{16,}$/,
  /^xox[abposr]-[A-Za-z0-9-]{10,}$/,
  /^glpat-[A-Za-z0-9_-]{16,}$/,
  /^AKIA[0-9A-Z]{16}$/,
  /^AIza[0-9A-Za-z_-]{30,}$/,
  /^eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

export function isSealedValue(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A value that is a credential whatever it is called: a known token shape, or a long random string. */
export function isSecretValue(value: string): boolean {
  if (isSealedValue(value)) return true;
  if (value.includes('${roots')) return false;
  if (SECRET_SHAPES.some((shape) => shape.test(value))) return true;
  // 32+ characters of letters, digits and token punctuation, mixing letters and digits: a key, not a word or a path.
  return /^[A-Za-z0-9_+=.-]{32,}$/.test(value) && /[A-Za-z]/.test(value) && /\d/.test(value);
}

/** True when the export must not write this value in clear. */
export function isSecret(name: string, value: string): boolean {
  return value !== '' && !value.includes('${roots') && (isSecretName(name) || isSecretValue(value));
}

/** One env value or header as shown: masked when secret, a URL with its credentials hidden, else as is. */
export function displayValue(name: string, value: string): string {
  if (isSealedValue(value)) return SEALED_MASK;
  if (isSecret(name, value)) return SECRET_MASK;
  return displayUrl(value);
}

/** A URL stays readable; only its password and the values of secret-named query parameters are hidden. */
export function displayUrl(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || !URL.canParse(value)) return value;
  const url = new URL(value);
  let changed = false;
  if (url.password) {
    url.password = 'MASKED';
    changed = true;
  }
  for (const [key, param] of [...url.searchParams]) {
    if (isSecret(key, param)) {
      url.searchParams.set(key, 'MASKED');
      changed = true;
    }
  }
  return changed ? url.href.replaceAll('MASKED', SECRET_MASK) : value;
}

/** An argument as shown: `--token=…` and secret-shaped values masked, URLs without their credentials. */
export function displayArg(arg: string): string {
  const flag = /^(--?[\w.-]+)=(.*)$/s.exec(arg);
  if (flag) return `${flag[1]}=${displayValue(flag[1] as string, flag[2] as string)}`;
  return isSecretValue(arg) ? (isSealedValue(arg) ? SEALED_MASK : SECRET_MASK) : displayUrl(arg);
}

export function displayTransport(transport: TransportConfig): TransportConfig {
  const shown = (values: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([name, value]) => [name, displayValue(name, value)]));
  if (transport.type === 'stdio') {
    return { ...transport, args: transport.args.map(displayArg), env: shown(transport.env) };
  }
  return { ...transport, url: displayUrl(transport.url), headers: shown(transport.headers) };
}
