// The UI's projection: a server's change forecast comes from every process that runs it, the app's
// own connection and each `mcp-roots proxy` session (their status files), so the matrix's ↻ shows
// for a server another app runs.
import { describe, expect, it } from 'vitest';
import { buildHostState, type StateSources } from '../../../../electron/host/status/host-state.js';
import type { ChangeForecast, ProxiedSession, Registry, ServerRecord } from '../../../../shared/domain.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';

const server = (id: string): ServerRecord => ({
  id,
  name: id,
  transport: { type: 'stdio', command: 'node', args: ['server.js'], env: {} },
  enabled: true,
  sharing: true,
  sandbox: true,
  network: true,
  askForFolders: true,
  addedAt: '2026-11-27T00:00:00.000Z',
});

const proxied = (serverId: string, changeRestarts: ChangeForecast | undefined): ProxiedSession => ({
  serverId,
  proxyPid: 4242,
  state: 'ready',
  rootsPolicy: 'registry',
  hostOffersRoots: false,
  rootsRequestCount: 1,
  listChangedCount: 0,
  startedAt: 1,
  updatedAt: 2,
  changeRestarts,
});

function sources(own: Record<string, ChangeForecast | undefined>, proxies: ProxiedSession[]): StateSources {
  const registry: Registry = { ...emptyRegistry(), servers: [server('runs-here'), server('runs-in-claude'), server('runs-nowhere')] };
  return {
    configPath: '/config/config.json',
    registry: () => registry,
    rootViews: () => [],
    exposure: () => ({ rootIds: [], roots: [], uris: [], folders: [] }),
    status: () => undefined,
    changeForecast: (serverId) => own[serverId],
    consentRequests: () => [],
    notices: () => [],
    proxies: () => proxies,
  };
}

describe('buildHostState: change forecasts', () => {
  it('gives a server only a proxy runs the proxy’s forecast, keeps the app’s own, and none where nothing runs it', () => {
    const state = buildHostState(sources({ 'runs-here': { revoke: 'forget' } }, [proxied('runs-in-claude', { grant: 'arguments', revoke: 'arguments' })]), 1);
    const forecast = (id: string) => state.servers.find((view) => view.id === id)?.changeRestarts;
    expect(forecast('runs-here')).toEqual({ revoke: 'forget' });
    expect(forecast('runs-in-claude')).toEqual({ grant: 'arguments', revoke: 'arguments' });
    expect(forecast('runs-nowhere')).toBeUndefined();
    expect(state.proxies.map((session) => session.serverId)).toEqual(['runs-in-claude']);
  });

  it('says a restart where the app would apply a grant live but the proxy’s session must restart', () => {
    const state = buildHostState(sources({ 'runs-in-claude': {} }, [proxied('runs-in-claude', { grant: 'reask' })]), 1);
    expect(state.servers.find((view) => view.id === 'runs-in-claude')?.changeRestarts).toEqual({ grant: 'reask', revoke: undefined });
  });
});
