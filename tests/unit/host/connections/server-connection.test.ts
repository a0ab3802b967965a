// ServerConnection through its public API, against real small stdio MCP servers (tests/fixtures):
// the behaviours the rest of the app relies on, asserted on activity codes and status, never on
// English. Every wait is for a fact (waitFor), never a sleep.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exposure } from '../../../../electron/host/access/exposure.js';
import { ServerConnection, type ConnectionHooks, type ConnectionOptions } from '../../../../electron/host/connections/server-connection.js';
import { EXITS_BEFORE_HOLD } from '../../../../electron/host/launch/server-failure.js';
import type { ActivityCode, ActivityEntry, ServerRecord, StdioTransportConfig, WireRoot } from '../../../../shared/domain.js';
import { removeTempDirs, tempDir, toolText, waitFor } from '../../../support/index.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const fixture = (name: string, ...args: string[]): StdioTransportConfig => ({
  type: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures', name), ...args],
  env: {},
});

function record(transport: StdioTransportConfig, patch: Partial<ServerRecord> = {}): ServerRecord {
  return { id: 'srv-1', name: 'fixture', transport, enabled: true, sharing: true, sandbox: false, network: true, askForFolders: true, addedAt: new Date(0).toISOString(), ...patch };
}

function exposureOf(folders: readonly string[]): Exposure {
  const roots: WireRoot[] = folders.map((folder) => ({ uri: pathToFileURL(folder).href, name: path.basename(folder) }));
  return {
    rootIds: folders.map((_, i) => `root-${i}`),
    roots,
    uris: roots.map((root) => root.uri),
    folders: folders.map((folder, i) => ({ rootId: `root-${i}`, path: folder, serverPath: folder, mode: 'read-write' as const })),
  };
}

/** A connection with hooks that record what it reports; `exposure` is what the registry grants now. */
function harness(transport: StdioTransportConfig, options: ConnectionOptions = {}, patch: Partial<ServerRecord> = {}) {
  const state = {
    exposure: exposureOf([]),
    activity: [] as ActivityEntry[],
    rootsRequests: [] as { uris: string[]; expected: boolean }[],
  };
  const hooks: ConnectionHooks = {
    exposureFor: () => state.exposure,
    rootsRequested: (_id, answered, expected) => state.rootsRequests.push({ uris: answered.map((root) => root.uri), expected }),
    statusChanged: () => undefined,
    activity: (_id, entry) => state.activity.push(entry),
  };
  const connection = new ServerConnection(record(transport, patch), hooks, { connectTimeoutMs: 20_000, ...options });
  connections.push(connection);
  const codes = () => state.activity.map((entry) => entry.code);
  const count = (code: ActivityCode) => state.activity.filter((entry) => entry.code === code).length;
  const patience = { timeoutMs: 30_000, explain: () => `activity: ${codes().join(', ')}\nstatus: ${JSON.stringify(connection.status)}` };
  const lastRoots = async () => JSON.parse(toolText(await connection.callTool('last-roots'))) as { asked: number; uris: string[] | null };
  return { connection, state, codes, count, patience, lastRoots };
}

const connections: ServerConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.stop()));
  removeTempDirs();
});

describe('ServerConnection', () => {
  it('starts, connects, and answers roots/list from its exposure', async () => {
    const folder = tempDir('conn-start-');
    const { connection, state, count, patience, lastRoots } = harness(fixture('roots-echo-server.mjs', 'follows'));
    state.exposure = exposureOf([folder]);
    connection.start();
    await waitFor(() => connection.status.state === 'connected' && connection.status.lifecycle === 'ready', { what: 'connected', ...patience });
    expect(connection.status.pid).toBeGreaterThan(0);
    expect(connection.status.era).toBe('legacy');
    expect(count('connected')).toBe(1);
    // It asks after initialize; calls wait for that answer (first-roots-gate.ts).
    expect(await lastRoots()).toEqual({ asked: 1, uris: [pathToFileURL(folder).href] });
    expect(state.rootsRequests).toEqual([{ uris: [pathToFileURL(folder).href], expected: false }]);
    expect(connection.status.rootsRequestCount).toBe(1);
    expect(count('roots-answered')).toBe(1);
  });

  it('a change reaches a server that re-reads by list_changed, without a restart', async () => {
    const [a, b] = [tempDir('conn-follow-a-'), tempDir('conn-follow-b-')];
    const { connection, state, count, patience, lastRoots } = harness(fixture('roots-echo-server.mjs', 'follows'));
    state.exposure = exposureOf([a]);
    connection.start();
    await waitFor(async () => (await lastRoots()).asked === 1, { what: 'the first roots/list', ...patience });
    const pid = connection.status.pid;

    state.exposure = exposureOf([a, b]);
    expect(connection.exposureChanged(state.exposure)).toBe(true);
    await waitFor(async () => (await lastRoots()).uris?.length === 2, { what: 'the change to reach it', ...patience });
    await waitFor(() => count('list-changed-sent') === 1, { what: 'list-changed-sent', ...patience });
    expect(connection.status.listChangedCount).toBe(1);
    // Asking again after list_changed taught it that this server re-reads.
    expect(connection.status.rereadsRoots).toBe(true);
    expect(connection.status.pid).toBe(pid);
    expect(state.activity.filter((entry) => entry.kind === 'restart')).toEqual([]);
    // Another change once it has asked: told again.
    state.exposure = exposureOf([b]);
    expect(connection.exposureChanged(state.exposure)).toBe(true);
    await waitFor(async () => (await lastRoots()).uris?.length === 1 && count('list-changed-sent') === 2, { what: 'the second change', ...patience });
    expect(connection.status.pid).toBe(pid);
  });

  it("a server that does not re-ask is restarted ('no-reask', then 'restart-reask'), and from then on at once", async () => {
    const [a, b] = [tempDir('conn-once-a-'), tempDir('conn-once-b-')];
    const { connection, state, count, codes, patience, lastRoots } = harness(fixture('roots-echo-server.mjs', 'asks-once'), { reaskWindowMs: 200 });
    state.exposure = exposureOf([a]);
    connection.start();
    await waitFor(() => connection.status.state === 'connected', { what: 'connected', ...patience });
    // It asks on its first tool call, and never again.
    expect(await lastRoots()).toEqual({ asked: 1, uris: [pathToFileURL(a).href] });
    const firstPid = connection.status.pid;

    state.exposure = exposureOf([b]);
    expect(connection.exposureChanged(state.exposure)).toBe(true);
    await waitFor(() => count('no-reask') === 1 && count('restart-reask') === 1, { what: 'no-reask, then restart-reask', ...patience });
    expect(codes().indexOf('no-reask')).toBeLessThan(codes().indexOf('restart-reask'));
    expect(connection.status.rereadsRoots).toBe(false);
    await waitFor(() => connection.status.state === 'connected' && connection.status.pid !== firstPid, { what: 'the new process', ...patience });
    expect(await lastRoots()).toEqual({ asked: 1, uris: [pathToFileURL(b).href] });
    expect(state.rootsRequests.at(-1)?.uris).toEqual([pathToFileURL(b).href]);

    // Learned: the next change restarts it at once, without a list_changed first.
    const sent = count('list-changed-sent');
    state.exposure = exposureOf([a]);
    expect(connection.exposureChanged(state.exposure)).toBe(true);
    expect(count('restart-reask')).toBe(2);
    await waitFor(async () => connection.status.state === 'connected' && JSON.stringify((await lastRoots()).uris) === JSON.stringify([pathToFileURL(a).href]), { what: 'the second change', ...patience });
    expect(count('no-reask')).toBe(1);
    expect(count('list-changed-sent')).toBe(sent);
  });

  it('a policy restart (a revoke of its last folder) is logged with its restart-* code, and its next roots/list is expected', async () => {
    const a = tempDir('conn-forget-');
    const { connection, state, count, patience, lastRoots } = harness(fixture('roots-echo-server.mjs', 'follows'));
    state.exposure = exposureOf([a]);
    connection.start();
    await waitFor(async () => (await lastRoots()).asked === 1, { what: 'the first roots/list', ...patience });
    const pid = connection.status.pid;
    // Servers may keep their folders when told an empty list: its last folder's revoke restarts it.
    state.exposure = exposureOf([]);
    expect(connection.exposureChanged(state.exposure)).toBe(true);
    expect(count('restart-forget')).toBe(1);
    await waitFor(() => connection.status.state === 'connected' && connection.status.pid !== pid && state.rootsRequests.length === 2, { what: 'the restarted process to ask', ...patience });
    expect(state.rootsRequests[1]).toEqual({ uris: [], expected: true });
    expect(count('list-changed-sent')).toBe(0);
  });

  it('update(record, event, source) restarts it and logs the event with its source', async () => {
    const { connection, state, patience } = harness(fixture('roots-echo-server.mjs', 'follows'));
    connection.start();
    await waitFor(() => connection.status.state === 'connected', { what: 'connected', ...patience });
    const pid = connection.status.pid;
    await connection.update({ ...connection.config, name: 'renamed' }, { code: 'config-changed' }, 'cli');
    const restart = state.activity.find((entry) => entry.kind === 'restart');
    expect(restart).toMatchObject({ code: 'config-changed', source: 'cli' });
    await waitFor(() => connection.status.state === 'connected' && connection.status.pid !== pid, { what: 'the restarted process', ...patience });
    expect(connection.config.name).toBe('renamed');
  });

  it('a restart waits for a running call (draining), and a second reason meanwhile joins that one restart', async () => {
    const dir = tempDir('conn-drain-');
    const [started, release] = [path.join(dir, 'started'), path.join(dir, 'release')];
    const { connection, state, count, patience } = harness(fixture('roots-echo-server.mjs', 'follows'));
    connection.start();
    await waitFor(() => connection.status.state === 'connected', { what: 'connected', ...patience });
    const pid = connection.status.pid;
    const call = connection.callTool('slow', { started, release });
    await waitFor(() => fs.existsSync(started), { what: 'the call to run', ...patience });

    const first = connection.update(connection.config, { code: 'config-changed' });
    await waitFor(() => connection.status.lifecycle === 'draining', { what: 'draining', ...patience });
    expect(connection.status.draining?.calls).toBe(1);
    const second = connection.update({ ...connection.config, name: 'second' }, { code: 'config-limits' });
    expect(count('drain-waiting')).toBe(1);
    fs.writeFileSync(release, '');
    // The call finishes on the old process, then one restart, with the newest config.
    expect(JSON.parse(toolText(await call))).toEqual({ pid });
    await Promise.all([first, second]);
    await waitFor(() => connection.status.state === 'connected' && connection.status.pid !== pid, { what: 'the restarted process', ...patience });
    expect(count('disconnected')).toBe(1);
    expect(count('connected')).toBe(2);
    expect(state.activity.filter((entry) => entry.kind === 'restart').map((entry) => entry.code)).toEqual(['config-changed', 'config-limits']);
    expect(connection.config.name).toBe('second');
  });

  it('a crash is retried with growing delays; Reconnect starts the count again', async () => {
    // It behaves, then exits 300 ms after initialized: each session ends by itself.
    const { connection, state, count, patience } = harness(fixture('hostile-server.mjs', 'crash-later'), { reconnectDelaysMs: [50, 600_000] }, { sharing: false });
    const retryDelay = () => {
      const closed = state.activity.filter((entry) => entry.code === 'closed-by-server').at(-1);
      return (connection.status.nextRetryAt ?? 0) - (closed?.at ?? 0);
    };
    connection.start();
    // First crash: the first delay; the retry's crash: the second (long) one.
    await waitFor(() => count('closed-by-server') === 2 && connection.status.lifecycle === 'backing-off', { what: 'two crashes', ...patience });
    expect(retryDelay()).toBeGreaterThan(500_000);
    // It ended after it ran: waiting to retry, not an error.
    expect(connection.status.state).toBe('disconnected');

    await connection.reconnect();
    expect(count('reconnect-requested')).toBe(1);
    await waitFor(() => count('closed-by-server') === 3 && connection.status.lifecycle === 'backing-off', { what: 'the crash after Reconnect', ...patience });
    expect(retryDelay()).toBeLessThan(10_000);
  });

  it(`a server that exits at start is held after ${EXITS_BEFORE_HOLD} exits ('held-exits-at-start')`, async () => {
    const { connection, state, count, patience } = harness(fixture('hostile-server.mjs', 'crash-at-start'), { reconnectDelaysMs: [10] });
    connection.start();
    await waitFor(() => connection.status.held !== undefined, { what: 'held', ...patience });
    expect(connection.status.held?.reason).toBe('exits-at-start');
    expect(connection.status).toMatchObject({ lifecycle: 'held-off', state: 'error' });
    expect(connection.status.nextRetryAt).toBeUndefined();
    expect(count('held-exits-at-start')).toBe(1);
    const failures = state.activity.filter((entry) => entry.code === 'server-failure');
    expect(failures).toHaveLength(EXITS_BEFORE_HOLD);
    expect(failures.every((entry) => entry.failure?.code === 'exited')).toBe(true);
  });

  it('a start that fails reads "error" while it backs off; switched off, it reads "disabled" at once', async () => {
    const { connection, patience } = harness({ type: 'stdio', command: path.join(tempDir('conn-missing-'), 'no-such-server'), args: [], env: {} }, { reconnectDelaysMs: [600_000] });
    connection.start();
    await waitFor(() => connection.status.lifecycle === 'backing-off', { what: 'backing off', ...patience });
    expect(connection.status).toMatchObject({ state: 'error', failure: { code: 'command-not-found' } });
    await connection.update({ ...connection.config, enabled: false }, { code: 'config-changed' });
    expect(connection.status).toMatchObject({ lifecycle: 'stopped', state: 'disabled', nextRetryAt: undefined });
  });

  it('stop ends the process and leaves it stopped', async () => {
    const { connection, count, patience } = harness(fixture('roots-echo-server.mjs', 'follows'));
    connection.start();
    await waitFor(() => connection.status.state === 'connected', { what: 'connected', ...patience });
    const pid = connection.status.pid as number;
    await connection.stop();
    expect(connection.status).toMatchObject({ lifecycle: 'stopped', state: 'disconnected', pid: undefined });
    expect(count('disconnected')).toBe(1);
    await waitFor(() => !alive(pid), { what: 'its process to end', ...patience });
    await expect(connection.callTool('last-roots')).rejects.toThrow(/not connected/);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
