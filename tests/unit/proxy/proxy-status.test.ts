// Proxy status files: written throttled by the proxy, listed by the app, cleaned up when the
// proxy is gone (dead pid, or silent too long for its pid to be trusted).
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { listLiveProxies, proxiesDir, proxyStatusFile, type ProxyStatus } from '../../../electron/host/status/proxy-status.js';
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
    const slow = new ProxyStatusWriter(configDir, status(), 60 * 60_000);
    expect(slow.file).toBe(proxyStatusFile(configDir, 'server-1', process.pid));
    for (let i = 1; i <= 50; i++) slow.update({ messagesFromHost: i });
    expect((await listLiveProxies(configDir))[0]?.messagesFromHost).toBe(0);
    slow.remove();
    // ...and the newest of them lands once the interval is over.
    const writer = new ProxyStatusWriter(configDir, status(), 100);
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
});
