// The one secret of the headless server: whoever holds it may drive the host. It lives only in the
// URL printed to the terminal and in a 0600 redirect file the browser is opened on (never in any
// process's argv), and the page trades it for a session cookie at once: never in a log line,
// storage or a Referer.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time compare. Hashing first gives equal lengths, so not even the length leaks. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
