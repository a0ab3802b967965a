// Which protocol era a session with a server should run in: the one decision, for the app's
// connections and for `mcp-roots proxy` alike. Folders come first:
//  - over stdio, a server that speaks both eras gets 2025-11-25 while it is told folders: there
//    its folders reach it whichever way it asks (the classic roots/list request, which servers like
//    Angular CLI's `ng mcp` use only, and input_required, which the v2 SDK turns into that request);
//    on 2026-07-28 only input_required carries them;
//  - over HTTP, 2026-07-28: the v2 SDK serves a 2025-era HTTP request on its own, statelessly, and
//    such a request cannot carry a server-to-client roots/list ("per-request legacy serving cannot
//    receive server-to-client requests"); input_required on 2026-07-28 can;
//  - a server told no folders (sharing off, folders as arguments) gets the newest era it offers.

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

export type EraPreference = 'legacy-first' | 'modern-first';

export interface EraFacts {
  transport: 'stdio' | 'http' | 'sse';
  /** Roots are declared and answered from the registry in this session. */
  carriesRoots: boolean;
}

export function preferredEra(facts: EraFacts): EraPreference {
  return facts.carriesRoots && facts.transport === 'stdio' ? 'legacy-first' : 'modern-first';
}

