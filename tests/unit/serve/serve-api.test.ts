// The contract over HTTP: calls round-trip to the real host, and malformed payloads on every
// channel come back as typed errors without touching the host's state.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { channels, contract } from '../../../shared/contract.js';
import type { HostState } from '../../../shared/domain.js';
import { MAX_BODY_BYTES } from '../../../electron/serve/serve-protocol.js';
import { call, getState, request, startFixture, waitFor, type Fixture } from './serve-fixture.js';

let fixture: Fixture;
beforeEach(async () => {
  fixture = await startFixture();
});
afterEach(async () => {
  await fixture.close();
});

/** The parts of the state an edit could change. */
const durable = (state: HostState) => ({
  revision: state.revision,
  roots: state.roots.map(({ id, path: rootPath, canonicalPath, name }) => ({ id, rootPath, canonicalPath, name })),
  servers: state.servers.map(({ id, name, enabled, sharing, grantedRootIds }) => ({ id, name, enabled, sharing, grantedRootIds })),
  settings: state.settings,
  notices: state.notices.length,
});

/**
 * The state once every root's access is known. Here (no servers, no sweeps) that probe is the one
 * change not made by an edit, so from then on the revision moves only on edits.
 */
function settledState(): Promise<HostState> {
  return waitFor(async () => {
    const state = await getState(fixture.serve);
    return state.roots.every((root) => root.access.state !== 'checking') ? state : undefined;
  });
}

/** Payloads that are wrong for every channel, plus one per channel with every field mistyped. */
function malformedPayloads(channel: (typeof channels)[number]): unknown[] {
  const schema = contract[channel].input as z.ZodType;
  const shape = schema instanceof z.ZodObject ? Object.keys(schema.shape as object) : [];
  const mistyped = Object.fromEntries(shape.map((key) => [key, { nested: ['x'] }]));
  return [
    [],
    [{ paths: [fixture.dir] }],
    'roots',
    42,
    true,
    { unexpected: 1 },
    JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
    { constructor: { prototype: { polluted: true } } },
    ...(shape.length > 0 ? [mistyped, Object.fromEntries(shape.map((key) => [key, null]))] : []),
  ];
}

describe('serve: calls', () => {
  it('round-trips roots.add, then state.get shows the root', async () => {
    const folder = fs.mkdtempSync(path.join(fixture.dir, 'root-'));
    const added = await call(fixture.serve, 'roots.add', { paths: [folder] });
    expect(added.status).toBe(200);
    const result = added.json() as { ok: true; value: { added: { canonicalPath: string; uri: string }[]; failed: unknown[] } };
    expect(result.ok).toBe(true);
    expect(result.value.failed).toEqual([]);
    expect(result.value.added).toHaveLength(1);
    expect(result.value.added[0]?.canonicalPath).toBe(fs.realpathSync(folder));
    const state = await getState(fixture.serve);
    expect(state.roots.map((root) => root.canonicalPath)).toEqual([fs.realpathSync(folder)]);
  });

  it('passes a handler failure through as a typed Result with HTTP 200', async () => {
    const response = await call(fixture.serve, 'roots.rename', { rootId: 'no-such-root', name: 'x' });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('treats an empty body as an empty input', async () => {
    const response = await request(fixture.serve, { method: 'POST', path: '/api/call/state.get' });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ ok: true });
  });

  it('answers 413 to a declared Content-Length over the limit', async () => {
    const response = await request(fixture.serve, {
      method: 'POST',
      path: '/api/call/roots.add',
      headers: { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) },
      body: Buffer.alloc(MAX_BODY_BYTES + 1, 0x20),
    });
    expect(response.status).toBe(413);
  });

  it('gives a typed error to malformed payloads on every channel and changes nothing', async () => {
    const folder = fs.mkdtempSync(path.join(fixture.dir, 'root-'));
    await call(fixture.serve, 'roots.add', { paths: [folder] });
    const before = durable(await settledState());
    expect(before.roots).toHaveLength(1);
    for (const channel of channels) {
      for (const payload of malformedPayloads(channel)) {
        const label = `${channel} ${JSON.stringify(payload)}`;
        const response = await call(fixture.serve, channel, payload);
        expect(response.status, label).toBe(200);
        expect(response.json(), label).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
        expect(typeof (response.json() as { error: { message: unknown } }).error.message, label).toBe('string');
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(durable(await getState(fixture.serve))).toEqual(before);
  });
});
