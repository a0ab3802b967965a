// Where the renderer's state snapshots come from. In the browser shell the server pushes the full
// state on every socket (re)connect, so a state.get over HTTP as well would move the same snapshot
// (1.3 MB at 1,000 folders x 50 servers) twice. HTTP is only the fallback when the socket cannot deliver.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostState } from '../../shared/domain.js';
import { fail, type Result } from '../../shared/result.js';
import type { ConnectionStatus, HostClient } from '../../renderer/src/host-client.js';
import { createHostStore, type HostStore } from '../../renderer/src/host-store.js';

const stateAt = (revision: number) => ({ revision, roots: [], servers: [] }) as unknown as HostState;

function fakeClient(shell: 'browser' | 'electron') {
  const stateListeners = new Set<(state: HostState) => void>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  const answers: ((result: Result<HostState>) => void)[] = [];
  let status: ConnectionStatus = 'connecting';
  const client: HostClient = {
    shell,
    call: ((channel: string) => {
      calls.push(channel);
      return new Promise((resolve) => answers.push(resolve));
    }) as HostClient['call'],
    on: ((event: string, listener: (state: HostState) => void) => {
      if (event !== 'state') return () => {};
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    }) as HostClient['on'],
    ...(shell === 'browser'
      ? {
          onConnection(listener: (status: ConnectionStatus) => void) {
            statusListeners.add(listener);
            listener(status);
            return () => statusListeners.delete(listener);
          },
        }
      : {}),
  };
  const calls: string[] = [];
  return {
    client,
    calls,
    setStatus(next: ConnectionStatus) {
      status = next;
      for (const listener of statusListeners) listener(next);
    },
    push(state: HostState) {
      for (const listener of stateListeners) listener(state);
    },
    /** Answers the oldest unanswered state.get. */
    async answer(result: Result<HostState>) {
      answers.shift()?.(result);
      await Promise.resolve();
    },
  };
}

let store: HostStore | undefined;
afterEach(() => {
  store?.dispose();
  store = undefined;
  vi.useRealTimers();
});

describe('host store: browser shell', () => {
  it('renders from the state the socket pushes on connect, without fetching it again', () => {
    vi.useFakeTimers();
    const fake = fakeClient('browser');
    store = createHostStore(fake.client);
    expect(store.getSnapshot()).toMatchObject({ state: undefined, connection: 'connecting' });
    fake.setStatus('open');
    const pushed = stateAt(7);
    fake.push(pushed);
    vi.advanceTimersByTime(60_000);
    expect(store.getSnapshot()).toMatchObject({ state: pushed, connection: 'open' });
    expect(fake.calls).toEqual([]);
  });

  it('does not fetch after a reconnect either: the server pushes the state again', () => {
    const fake = fakeClient('browser');
    store = createHostStore(fake.client);
    fake.setStatus('open');
    fake.push(stateAt(1));
    fake.setStatus('closed');
    fake.setStatus('connecting');
    fake.setStatus('open');
    const restarted = stateAt(1);
    fake.push(restarted);
    expect(store.getSnapshot().state).toBe(restarted);
    expect(fake.calls).toEqual([]);
  });

  it('asks over HTTP when the socket closes before any state, to show why (once at a time)', async () => {
    const fake = fakeClient('browser');
    store = createHostStore(fake.client);
    fake.setStatus('closed');
    fake.setStatus('connecting');
    fake.setStatus('closed');
    expect(fake.calls).toEqual(['state.get']);
    await fake.answer(fail('unauthorized', 'Bad token.'));
    expect(store.getSnapshot()).toMatchObject({ state: undefined, loadError: { code: 'unauthorized' } });
    // A later socket that does get through clears the error.
    fake.setStatus('open');
    const pushed = stateAt(3);
    fake.push(pushed);
    expect(store.getSnapshot()).toMatchObject({ state: pushed, loadError: undefined });
  });

  it('asks over HTTP when the handshake is still not done after the grace period', async () => {
    vi.useFakeTimers();
    const fake = fakeClient('browser');
    store = createHostStore(fake.client, { handshakeGraceMs: 500 });
    vi.advanceTimersByTime(499);
    expect(fake.calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fake.calls).toEqual(['state.get']);
    const fetched = stateAt(2);
    await fake.answer({ ok: true, value: fetched });
    expect(store.getSnapshot().state).toBe(fetched);
  });

  it('waits for the push, not the grace period, once the socket is open', () => {
    vi.useFakeTimers();
    const fake = fakeClient('browser');
    store = createHostStore(fake.client, { handshakeGraceMs: 500 });
    fake.setStatus('open');
    vi.advanceTimersByTime(5000);
    expect(fake.calls).toEqual([]);
  });

  it('never lets a late state.get answer roll back a newer pushed state', async () => {
    const fake = fakeClient('browser');
    store = createHostStore(fake.client);
    fake.setStatus('closed');
    expect(fake.calls).toEqual(['state.get']);
    fake.setStatus('open');
    const pushed = stateAt(9);
    fake.push(pushed);
    await fake.answer({ ok: true, value: stateAt(8) });
    expect(store.getSnapshot().state).toBe(pushed);
  });

  it('fetches on reload() (the "try again" button)', async () => {
    const fake = fakeClient('browser');
    store = createHostStore(fake.client);
    fake.setStatus('open');
    store.reload();
    expect(fake.calls).toEqual(['state.get']);
    const fetched = stateAt(4);
    await fake.answer({ ok: true, value: fetched });
    expect(store.getSnapshot().state).toBe(fetched);
  });
});

describe('host store: Electron shell', () => {
  it('loads the state once over IPC, then follows the pushes', async () => {
    const fake = fakeClient('electron');
    store = createHostStore(fake.client);
    expect(store.getSnapshot().connection).toBe('open');
    expect(fake.calls).toEqual(['state.get']);
    const loaded = stateAt(1);
    await fake.answer({ ok: true, value: loaded });
    expect(store.getSnapshot().state).toBe(loaded);
    const pushed = stateAt(2);
    fake.push(pushed);
    expect(store.getSnapshot().state).toBe(pushed);
    expect(fake.calls).toEqual(['state.get']);
  });
});
