// Proxy status files: written throttled by the proxy, listed by the app, cleaned up when the
// proxy is gone (dead pid, or silent too long for its pid to be trusted).
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { listLiveProxies, proxiedSession, proxiesDir, proxyStatusFile, type ProxyStatus } from '../../../electron/host/status/proxy-status.js';
import type { ChangeForecast } from '../../../shared/domain.js';
import { ProxyStatusWriter } from '../../../electron/proxy/proxy-status-writer.js';
import { removeTempDirs, tempDir, waitFor } from '../../support/index.js';

afterEach(() => removeTempDirs());

function status(patch: Partial<ProxyStatus> = {}): ProxyStatus {
  const now = Date.now();
  return {
    proxyPid: process.pid,
    serverId: 'server-1',
    serverName: 'filesystem',
    startedAt: now,
    updatedAt: now,
    state: 'ready',
    rootsPolicy: 'registry',
    hostOffersRoots: false,
    rootsRequestCount: 0,
    listChangedCount: 0,
    restartCount: 0,
    messagesFromHost: 0,
    messagesFromServer: 0,
    ...patch,
  };
}

describe('proxy status files', () => {
  it('the writer coalesces updates, the reader lists the live proxy, and remove() cleans up', async () => {
    const configDir = tempDir('status-');
    // Coalesced: with an hour between writes, fifty updates right after the first write write nothing
    // (a short interval could elapse while a loaded machine reads the file, so it is not used here).
    const slow = new ProxyStatusWriter(configDir, status(), { minIntervalMs: 60 * 60_000 });
    expect(slow.file).toBe(proxyStatusFile(configDir, 'server-1', process.pid));
    for (let i = 1; i <= 50; i++) slow.update({ messagesFromHost: i });
    expect((await listLiveProxies(configDir))[0]?.messagesFromHost).toBe(0);
    slow.remove();
    // ...and the newest of them lands once the interval is over.
    const writer = new ProxyStatusWriter(configDir, status(), { minIntervalMs: 100 });
    for (let i = 1; i <= 50; i++) writer.update({ messagesFromHost: i });
    await waitFor(async () => (await listLiveProxies(configDir))[0]?.messagesFromHost === 50, { what: 'the coalesced write' });
    writer.remove();
    expect(await listLiveProxies(configDir)).toEqual([]);
    expect(fs.readdirSync(proxiesDir(configDir))).toEqual([]);
  });

  it('drops files of dead or silent proxies and ignores what it cannot read', async () => {
    const configDir = tempDir('status-');
    fs.mkdirSync(proxiesDir(configDir));
    const write = (name: string, value: unknown) => fs.writeFileSync(`${proxiesDir(configDir)}/${name}`, JSON.stringify(value));
    write('live-1.json', status({ proxyPid: 1111, serverId: 'live' }));
    write('dead-2.json', status({ proxyPid: 2222, serverId: 'dead' }));
    write('silent-3.json', status({ proxyPid: 3333, serverId: 'silent', updatedAt: Date.now() - 10 * 60_000 }));
    write('junk-4.json', { hello: 'world' });
    fs.writeFileSync(`${proxiesDir(configDir)}/notes.txt`, 'not a status');
    const live = await listLiveProxies(configDir, { isAlive: (pid) => pid !== 2222 });
    expect(live.map((proxy) => proxy.serverId)).toEqual(['live']);
    expect(fs.readdirSync(proxiesDir(configDir)).sort()).toEqual(['junk-4.json', 'live-1.json', 'notes.txt']);
    expect(await listLiveProxies(tempDir('empty-'))).toEqual([]);
  });

  it('writes the change forecast as of each write (refresh), and the app reads it into the proxied session', async () => {
    const configDir = tempDir('status-');
    let forecast: ChangeForecast | undefined;
    const writer = new ProxyStatusWriter(configDir, status(), { minIntervalMs: 20, refresh: () => ({ changeRestarts: forecast }) });
    // Before the session exists there is nothing to forecast: the field is left out.
    expect(JSON.parse(fs.readFileSync(writer.file, 'utf8'))).not.toHaveProperty('changeRestarts');
    forecast = { grant: 'arguments', revoke: 'arguments' };
    // update() with nothing else changed: the forecast is read when the write happens.
    writer.update();
    const [read] = await waitFor(async () => {
      const live = await listLiveProxies(configDir);
      return live[0]?.changeRestarts ? live : undefined;
    }, { what: 'the forecast in the file' });
    expect(read?.changeRestarts).toEqual({ grant: 'arguments', revoke: 'arguments' });
    expect(proxiedSession(read as ProxyStatus).changeRestarts).toEqual({ grant: 'arguments', revoke: 'arguments' });
    forecast = {};
    writer.update({ messagesFromHost: 1 });
    await waitFor(async () => (await listLiveProxies(configDir))[0]?.messagesFromHost === 1, { what: 'the next write' });
    expect((await listLiveProxies(configDir))[0]?.changeRestarts).toEqual({});
    writer.remove();
  });

  it('ignores a malformed forecast, and only it: the proxy is still listed, with no restart forecast it cannot read', async () => {
    const configDir = tempDir('status-');
    fs.mkdirSync(proxiesDir(configDir));
    const write = (name: string, changeRestarts: unknown) =>
      fs.writeFileSync(`${proxiesDir(configDir)}/${name}.json`, JSON.stringify({ ...status({ serverId: name }), changeRestarts }));
    write('not-an-object', 'restart please');
    write('null', null);
    // A why this version does not know (a newer proxy's) is left out, not guessed; the other side stays.
    write('unknown-why', { grant: 'teleport', revoke: 'forget' });
    write('extra-keys', { grant: 'mounts', widen: ['/'] });
    write('wrong-type', { grant: 42 });
    const byId = new Map((await listLiveProxies(configDir)).map((live) => [live.serverId, live.changeRestarts]));
    expect([...byId.keys()].sort()).toEqual(['extra-keys', 'not-an-object', 'null', 'unknown-why', 'wrong-type']);
    expect(byId.get('not-an-object')).toBeUndefined();
    expect(byId.get('null')).toBeUndefined();
    expect(byId.get('unknown-why')).toEqual({ grant: undefined, revoke: 'forget' });
    expect(byId.get('extra-keys')).toEqual({ grant: 'mounts' });
    expect(byId.get('wrong-type')).toEqual({ grant: undefined });
  });
});
