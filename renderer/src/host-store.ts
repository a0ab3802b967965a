// Holds the latest immutable HostState snapshot for useSyncExternalStore. The host pushes the whole
// state on every change, so the UI never merges partial updates and can never drift from the host.
//
// Where the snapshots come from. Electron: one `state.get`, then pushes. Browser: the server pushes
// the full state on every socket (re)connect, so that push is the first snapshot and the only
// one fetched. A `state.get` over HTTP as well would move (and parse, and render) the same 1.3 MB
// a second time at 25,000 grants. HTTP is the fallback only, when the socket cannot deliver:
// it closed before any state arrived (no token, bad token, server down: the call says why), or
// the handshake is still not done after `handshakeGraceMs`.
import type { HostState } from '../../shared/domain.js';
import type { HostError } from '../../shared/result.js';
import type { HostClient } from './host-client.js';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface HostSnapshot {
  state: HostState | undefined;
  /** Why the first state could not be loaded (shown instead of the UI). */
  loadError: HostError | undefined;
  connection: ConnectionState;
}

export interface HostStore {
  getSnapshot(): HostSnapshot;
  subscribe(listener: () => void): () => void;
  /** Asks for a fresh full state over the contract (the "try again" button, and the fallbacks). */
  reload(): void;
  dispose(): void;
}

export interface HostStoreOptions {
  /** Browser shell: a socket still not open after this long no longer holds up the first state. */
  handshakeGraceMs?: number;
}

export function createHostStore(client: HostClient, options: HostStoreOptions = {}): HostStore {
  let snapshot: HostSnapshot = {
    state: undefined,
    loadError: undefined,
    // Electron IPC is always open; only the browser shell reports a connection.
    connection: client.onConnection ? 'connecting' : 'open',
  };
  const listeners = new Set<() => void>();
  // A state.get answer may arrive after a newer pushed state; never let it roll the UI back.
  let pushedSinceLoad = false;
  let loading = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;

  const set = (patch: Partial<HostSnapshot>): void => {
    snapshot = { ...snapshot, ...patch };
    for (const listener of listeners) listener();
  };

  const reload = (): void => {
    pushedSinceLoad = false;
    loading = true;
    void client.call('state.get', {}).then(
      (result) => {
        loading = false;
        if (!result.ok) return set({ loadError: result.error });
        if (pushedSinceLoad) return;
        set({ state: result.value, loadError: undefined });
      },
      (error: unknown) => {
        loading = false;
        set({ loadError: { code: 'internal', message: String(error) } });
      },
    );
  };

  /** Fetches only while nothing is on screen and nothing is already on its way. */
  const loadIfMissing = (): void => {
    if (!snapshot.state && !loading) reload();
  };

  const offState = client.on('state', (state) => {
    pushedSinceLoad = true;
    clearTimeout(graceTimer);
    set({ state, loadError: undefined });
  });
  const offConnection = client.onConnection?.((connection) => {
    set({ connection });
    // Once open, the server's push is already on its way: fetching it too would double the work.
    if (connection === 'closed') loadIfMissing();
  });

  if (!client.onConnection) {
    reload();
  } else {
    graceTimer = setTimeout(() => {
      if (snapshot.connection === 'connecting') loadIfMissing();
    }, options.handshakeGraceMs ?? 1500);
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reload,
    dispose() {
      clearTimeout(graceTimer);
      offState();
      offConnection?.();
      listeners.clear();
    },
  };
}
