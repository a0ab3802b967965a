// Reconnect delays: quick first retries, then patient ones, never a busy loop.
export const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000] as const;

/**
 * A session closed for flooding (inbound-limits.ts) is started again after at least these, one
 * step further at each flood: half a minute, then minutes, so a server that floods whenever it runs
 * costs the app a few seconds of reading every few minutes.
 */
export const FLOOD_RESTART_DELAYS_MS = [30_000, 60_000, 120_000, 300_000] as const;

/** A connection must stay up this long before its failures count as new rather than a crash loop. */
export const STABLE_CONNECTION_MS = 10_000;

export function reconnectDelay(attempt: number, delays: readonly number[] = RECONNECT_DELAYS_MS): number {
  const index = Math.min(Math.max(attempt, 0), delays.length - 1);
  return delays[index] ?? 30_000;
}
