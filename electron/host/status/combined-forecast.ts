// The matrix's ↻ for a server, from everything that runs it: this process's own connection and each
// `mcp-roots proxy` session another app runs it in. Each forecast is made by the same roots-change
// policy (roots-change-policy.ts forecastFor) where the session is; this only puts them together:
// a grant that restarts any of its processes restarts the server somewhere, so it is said.
import type { ChangeForecast, ProxiedSession, RestartWhy } from '../../../shared/domain.js';

/** Undefined where nothing known runs it (no forecast to show). */
export function combinedForecast(own: ChangeForecast | undefined, sessions: readonly ProxiedSession[]): ChangeForecast | undefined {
  const running = sessions.filter((session) => session.state !== 'stopped' && session.changeRestarts !== undefined);
  if (running.length === 0) return own;
  const forecasts = [...(own ? [own] : []), ...running.map((session) => session.changeRestarts as ChangeForecast)];
  return { grant: firstRestart(forecasts.map((forecast) => forecast.grant)), revoke: firstRestart(forecasts.map((forecast) => forecast.revoke)) };
}

/** The first restart named, this process's before the proxies'; a 'retry' (a failed one is started, nothing running is cut) only where none is. */
function firstRestart(whys: readonly (RestartWhy | undefined)[]): RestartWhy | undefined {
  return whys.find((why) => why !== undefined && why !== 'retry') ?? whys.find((why) => why !== undefined);
}
