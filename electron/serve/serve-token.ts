// The one secret of the headless server: whoever holds it may drive the host. It lives only in the
// printed URL's fragment and in the page's sessionStorage, never in a log line or a Referer.
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
