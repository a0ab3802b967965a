// renderer/src/host-client.ts against the real server (browser shell, with Node's fetch and the
// `ws` WebSocket standing in for the browser's) and against a real preload-shaped API (Electron).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { channels, eventNames, type Channel, type EventName } from '../../../shared/contract.js';
import type { HostState } from '../../../shared/domain.js';
import { buildPreloadApi, splitChannel, type PreloadApi } from '../../../shared/preload-api.js';
import { API_EVENTS_PATH } from '../../../shared/serve-wire.js';
import { dispatch } from '../../support/host-harness.js';
import {
  createBrowserHostClient,
  createElectronHostClient,
  takeServeToken,
  TOKEN_STORAGE_KEY,
  type BrowserHostClient,
  type ConnectionStatus,
  type SocketLike,
} from '../../../renderer/src/host-client.js';
import { startFixture, waitFor, type Fixture } from './serve-fixture.js';

let fixture: Fixture | undefined;
let client: BrowserHostClient | undefined;
afterEach(async () => {
  client?.dispose();
  client = undefined;
  await fixture?.close();
  fixture = undefined;
});

const nodeSocket = (url: string, protocols: string[]) => new WebSocket(url, protocols) as unknown as SocketLike;

function browserClient(f: Fixture, token = f.serve.token): BrowserHostClient {
  return createBrowserHostClient({ baseUrl: f.serve.origin, token, createSocket: nodeSocket, initialRetryMs: 20, maxRetryMs: 100 });
}

describe('host-client: browser shell', () => {
  it('calls, receives the pushed state, and reports the connection', async () => {
    fixture = await startFixture();
    client = browserClient(fixture);
    const statuses: ConnectionStatus[] = [];
    client.onConnection((status) => statuses.push(status));
    const states: HostState[] = [];
    const off = client.on('state', (state) => states.push(state));
    await waitFor(() => client?.connectionStatus === 'open' && states.length > 0);
    expect(statuses).toEqual(['connecting', 'open']);

    const folder = fs.mkdtempSync(path.join(fixture.dir, 'root-'));
    const added = await client.call('roots.add', { paths: [folder] });
    expect(added.ok && added.value.added.length).toBe(1);
    await waitFor(() => states.some((state) => state.roots.length === 1));
    const got = await client.call('state.get', {});
    expect(got.ok && got.value.roots.map((root) => root.canonicalPath)).toEqual([fs.realpathSync(folder)]);

    // A listener still subscribed hears the same push: once it has the rename, the removed one had its chance.
    const witnessed: HostState[] = [];
    const offWitness = client.on('state', (state) => witnessed.push(state));
    off();
    const count = states.length;
    await client.call('roots.rename', { rootId: got.ok ? got.value.roots[0]!.id : '', name: 'renamed' });
    await waitFor(() => witnessed.some((state) => state.roots[0]?.name === 'renamed'));
    offWitness();
    expect(states.length).toBe(count);
  });

  it('returns typed errors from the server and never throws', async () => {
    fixture = await startFixture();
    client = browserClient(fixture);
    const bad = await client.call('roots.add', { paths: [] });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const missing = await client.call('roots.rename', { rootId: 'nope', name: 'x' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('turns a wrong token into an unauthorized Result and stops reconnecting', async () => {
    fixture = await startFixture();
    let upgrades = 0;
    fixture.serve.server.on('upgrade', () => upgrades++);
    // After a refused socket the client asks whether its token is still good; the answer decides
    // whether a reconnect is armed. Both are watched: no timer armed means no knock can follow.
    let tokenChecks = 0;
    const armed: number[] = [];
    client = createBrowserHostClient({
      baseUrl: fixture.serve.origin,
      token: 'A'.repeat(43),
      createSocket: nodeSocket,
      initialRetryMs: 20,
      maxRetryMs: 100,
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        const body: unknown = await response.json().catch(() => undefined);
        if (url.endsWith(API_EVENTS_PATH)) tokenChecks++;
        return { status: response.status, json: () => Promise.resolve(body) };
      },
      setRetryTimer: (reconnect, delayMs) => {
        armed.push(delayMs);
        const timer = setTimeout(reconnect, delayMs);
        return () => clearTimeout(timer);
      },
    });
    const result = await client.call('state.get', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    // The check follows the refused socket, so by then the one knock has been counted.
    await waitFor(() => tokenChecks > 0);
    // The check's answer is acted on in promise callbacks: one turn of the event loop runs them all.
    await new Promise((resolve) => setImmediate(resolve));
    expect(armed).toEqual([]);
    expect(client.connectionStatus).toBe('closed');
    expect(upgrades).toBe(1);
  });

  it('without a token, answers unauthorized and does not connect', async () => {
    const offline = createBrowserHostClient({ baseUrl: 'http://127.0.0.1:9', token: undefined, createSocket: () => {
      throw new Error('must not connect');
    } });
    expect(offline.connectionStatus).toBe('closed');
    expect(await offline.call('state.get', {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    offline.dispose();
  });

  it('turns a network failure into an internal Result, then reconnects when the server is back', async () => {
    fixture = await startFixture();
    client = browserClient(fixture);
    await waitFor(() => client?.connectionStatus === 'open');
    const { port } = fixture.serve;
    await fixture.serve.close();
    await waitFor(() => client?.connectionStatus !== 'open');
    const down = await client.call('state.get', {});
    expect(down).toMatchObject({ ok: false, error: { code: 'internal' } });

    // Same host, a new server on the same port: the old token is now wrong, so the client gives up.
    const { startServeServer } = await import('../../../electron/serve/serve-server.js');
    const again = await startServeServer({ host: fixture.host, port, rendererDir: fixture.rendererDir });
    fixture.serve = again;
    await waitFor(() => client?.connectionStatus === 'closed');
    expect(await client.call('state.get', {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });
});

describe('host-client: token hand-over', () => {
  it('takes the token out of the address bar and keeps it nowhere (the cookie replaces it)', () => {
    const storage = new Map<string, string>([[TOKEN_STORAGE_KEY, 'left-by-an-older-version']]);
    const replaced: string[] = [];
    const g = {
      location: { origin: 'http://127.0.0.1:8765', pathname: '/', search: '', hash: '#token=abc_DEF-123' },
      history: { replaceState: (_data: unknown, _unused: string, url?: string) => void replaced.push(url ?? '') },
      sessionStorage: { removeItem: (key: string) => void storage.delete(key) },
    };
    expect(takeServeToken(g)).toBe('abc_DEF-123');
    expect(replaced).toEqual(['/']);
    expect(storage.size).toBe(0);
    // After a reload the fragment is gone and nothing else holds the token.
    expect(takeServeToken({ ...g, location: { ...g.location, hash: '' } })).toBeUndefined();
    // Other fragment parameters stay.
    expect(takeServeToken({ ...g, location: { ...g.location, hash: '#token=t2&view=servers' } })).toBe('t2');
    expect(replaced.at(-1)).toBe('/#view=servers');
  });
});

describe('host-client: Electron shell', () => {
  it('adapts the named preload API, built from the contract, to call and on', async () => {
    fixture = await startFixture();
    const host = fixture.host;
    const api: PreloadApi = buildPreloadApi(
      channels,
      eventNames,
      (channel, input) => dispatch(host, channel, input),
      (event: EventName, listener) => {
        host.on(event, listener);
        return () => void host.off(event, listener);
      },
    );
    for (const channel of channels) {
      const [group, method] = splitChannel(channel);
      expect(typeof (api as unknown as Record<string, Record<string, unknown>>)[group]?.[method], channel).toBe('function');
    }
    const electron = createElectronHostClient(api);
    expect(electron.shell).toBe('electron');
    expect(electron.onConnection).toBeUndefined();
    const states: HostState[] = [];
    const off = electron.on('state', (state) => states.push(state));
    const folder = fs.mkdtempSync(path.join(fixture.dir, 'root-'));
    const added = await electron.call('roots.add', { paths: [folder] });
    expect(added.ok).toBe(true);
    await waitFor(() => states.some((state) => state.roots.length === 1));
    off();
    expect(await electron.call('roots.remove', { rootIds: ['x'.repeat(200)] })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('turns a throwing preload into an internal Result', async () => {
    const api = buildPreloadApi(channels, eventNames, () => Promise.reject(new Error('ipc broke')), () => () => {});
    const electron = createElectronHostClient(api);
    expect(await electron.call('state.get', {})).toEqual({ ok: false, error: { code: 'internal', message: 'ipc broke' } });
  });

  it('types the preload API from the contract', () => {
    const api = buildPreloadApi(channels, eventNames, () => Promise.resolve({ ok: true, value: null }), () => () => {});
    // Compile-time checks: a channel is a method of its group, an event a subscription.
    const add: (input: { paths: string[] }) => Promise<unknown> = api.roots.add;
    const setSharing: PreloadApi['servers']['setSharing'] = api.servers.setSharing;
    const unsubscribe: () => void = api.on.state(() => {});
    expect([add, setSharing, unsubscribe].every((fn) => typeof fn === 'function')).toBe(true);
    const everyChannel: Channel[] = channels;
    expect(everyChannel.length).toBeGreaterThan(0);
  });
});
