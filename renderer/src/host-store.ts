// Holds the latest immutable HostState snapshot for useSyncExternalStore. The host pushes the whole
// state on every change, so the UI never merges partial updates and can never drift from the host.
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
  /** Asks for a fresh full state (after a reconnect, or from the "try again" button). */
  reload(): void;
  dispose(): void;
}

export function createHostStore(client: HostClient): HostStore {
  let snapshot: HostSnapshot = {
    state: undefined,
    loadError: undefined,
    // Electron IPC is always open; only the browser shell reports a connection.
    connection: client.onConnection ? 'connecting' : 'open',
  };
  const listeners = new Set<() => void>();
  // A state.get answer may arrive after a newer pushed state; never let it roll the UI back.
  let pushedSinceLoad = false;

  const set = (patch: Partial<HostSnapshot>): void => {
    snapshot = { ...snapshot, ...patch };
    for (const listener of listeners) listener();
  };

  const reload = (): void => {
    pushedSinceLoad = false;
    void client.call('state.get', {}).then(
      (result) => {
        if (!result.ok) return set({ loadError: result.error });
        if (pushedSinceLoad) return;
        set({ state: result.value, loadError: undefined });
      },
      (error: unknown) => set({ loadError: { code: 'internal', message: String(error) } }),
    );
  };

  const offState = client.on('state', (state) => {
    pushedSinceLoad = true;
    set({ state, loadError: undefined });
  });
  const offConnection = client.onConnection?.((connection) => {
    const wasClosed = snapshot.connection !== 'open';
    set({ connection });
    // The host may have restarted while we were away: its revision counter restarts too.
    if (connection === 'open' && wasClosed) reload();
  });
  reload();

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reload,
    dispose() {
      offState();
      offConnection?.();
      listeners.clear();
    },
  };
}
