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
import type { EraReason } from '../../../shared/domain.js';

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

/** The reason for an era, in English (the CLI, the logs); the UI translates the code. */
export const ERA_REASON_TEXT: Record<EraReason, string> = {
  'legacy-only': 'It speaks only the 2025-era protocol.',
  'modern-only': 'It speaks only 2026-07-28 (it refused the 2025 handshake): its folders reach it only when it asks inside a call (input_required).',
  'folders-first': 'It speaks both eras; 2025-11-25 was chosen because there its folders reach it whichever way it asks for them (2026-07-28 carries them only inside calls).',
  newest: 'It speaks both eras and is told no folders here: the newest one.',
  'remote-modern': 'Over HTTP, 2026-07-28 carries its folders (inside calls); its 2025-era requests are served one at a time and cannot carry a roots/list request.',
  'probe-unanswered': 'It did not answer the 2026-07-28 probe in time (a slow start): the 2025 handshake was used.',
  'host-era': 'The host chose this era; the proxy passes it through.',
};
