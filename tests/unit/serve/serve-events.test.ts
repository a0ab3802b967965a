// `/api/events`: the initial snapshot, pushed updates, refused upgrades, and the backpressure
// rule that a backed-up socket gets only the newest state snapshot.
import fs from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostState } from '../../../shared/domain.js';
import { call, openEvents, startFixture, waitFor, WS_SUBPROTOCOLS, type Fixture } from './serve-fixture.js';

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the upgrade was accepted');
    },
    (error: { status?: number }) => error.status,
  );

describe('serve: events', () => {
  it('sends the current state on connect, then a pushed update after an edit', async () => {
    fixture = await startFixture();
    const events = await openEvents(fixture.serve);
    expect(events.socket.protocol).toBe('mcp-roots.v1');
    const first = await events.next(() => true);
    expect(first.event).toBe('state');
    expect((first.payload as HostState).roots).toEqual([]);

    const folder = fs.mkdtempSync(path.join(fixture.dir, 'root-'));
    await call(fixture.serve, 'roots.add', { paths: [folder] });
    const pushed = await events.next(
      (message) => message.event === 'state' && (message.payload as HostState).roots.some((root) => root.canonicalPath === fs.realpathSync(folder)),
    );
    expect((pushed.payload as HostState).revision).toBeGreaterThan((first.payload as HostState).revision);
    events.socket.close();
  });

  it('gives every newly connected page the state as it is now, not an older encoded one', async () => {
    fixture = await startFixture();
    const early = await openEvents(fixture.serve);
    const before = (await early.next(() => true)).payload as HostState;
    // Two pages on an unchanged host get the same snapshot (encoded once, sent twice).
    const twin = await openEvents(fixture.serve);
    expect(((await twin.next(() => true)).payload as HostState).revision).toBe(before.revision);

    const folder = fs.mkdtempSync(path.join(fixture.dir, 'root-'));
    await call(fixture.serve, 'roots.add', { paths: [folder] });
    await early.next((message) => message.event === 'state' && (message.payload as HostState).roots.length === 1);
    const late = await openEvents(fixture.serve);
    const first = (await late.next(() => true)).payload as HostState;
    expect(first.roots.map((root) => root.canonicalPath)).toEqual([fs.realpathSync(folder)]);
    expect(first).toEqual(fixture.host.getState());
    for (const events of [early, twin, late]) events.socket.close();
  });

  it('forwards activity events', async () => {
    fixture = await startFixture();
    const events = await openEvents(fixture.serve);
    await events.next(() => true);
    const entry = { seq: 1, at: Date.now(), kind: 'info' as const, message: 'hello', code: 'error-text' as const, params: { detail: 'hello' } };
    fixture.host.emit('activity', { serverId: 's1', entry });
    const activity = await events.next((message) => message.event === 'activity');
    expect(activity.payload).toEqual({ serverId: 's1', entry });
    events.socket.close();
  });

  it('refuses an upgrade without a token, with a wrong token, a foreign Origin or a foreign Host', async () => {
    fixture = await startFixture();
    const { serve } = fixture;
    expect(await refusal(openEvents(serve, {}, ['mcp-roots.v1']))).toBe(401);
    expect(await refusal(openEvents(serve, {}, WS_SUBPROTOCOLS('A'.repeat(43))))).toBe(401);
    expect(await refusal(openEvents(serve, { Origin: 'http://evil.example' }))).toBe(403);
    expect(await refusal(openEvents(serve, { Origin: `http://localhost:${serve.port}` }))).toBe(403);
    expect(await refusal(openEvents(serve, { Host: `evil.example:${serve.port}` }))).toBe(403);
    // The token in a query parameter is not accepted: it would end up in URLs and logs.
    const queryOnly = openEvents(serve, {}, ['mcp-roots.v1'], `?token=${serve.token}`);
    expect(await refusal(queryOnly)).toBe(401);
    // Its own origin is fine.
    const own = await openEvents(serve, { Origin: serve.origin });
    own.socket.close();
  });

  it('sends a backed-up socket only the newest of a burst of state snapshots', async () => {
    fixture = await startFixture();
    const events = await openEvents(fixture.serve);
    await events.next(() => true);
    // Stop reading on the client side: the kernel buffers fill and the server's socket backs up.
    const tcp = (events.socket as unknown as { _socket: Socket })._socket;
    tcp.pause();
    const base = fixture.host.getState();
    const padding = 'x'.repeat(256 * 1024);
    const burst = 200;
    for (let i = 1; i <= burst; i++) fixture.host.emit('state', { ...base, configPath: padding, revision: 1_000_000 + i });
    tcp.resume();
    const newest = await events.next((message) => (message.payload as HostState).revision === 1_000_000 + burst, 10_000);
    expect(newest.event).toBe('state');
    const revisions = events.messages.map((message) => (message.payload as HostState).revision).slice(1);
    expect(revisions.length).toBeLessThan(burst / 2);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
    events.socket.close();
  });

  it('closes its sockets when the server closes', async () => {
    fixture = await startFixture();
    const events = await openEvents(fixture.serve);
    const closed = new Promise<number>((resolve) => events.socket.once('close', (code) => resolve(code)));
    await fixture.serve.close();
    expect(await closed).toBe(1001);
    await waitFor(() => events.socket.readyState === events.socket.CLOSED);
  });
});
