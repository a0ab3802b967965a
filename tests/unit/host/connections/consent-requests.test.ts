// Consent requests without a flood: one per server, gone with a grant, snoozed by "Not now" until the
// app restarts, and never raised for a server set not to ask.
import { describe, expect, it } from 'vitest';
import { ConsentRequests } from '../../../../electron/host/connections/consent-requests.js';
import type { Registry, ServerRecord } from '../../../../shared/domain.js';

const server = (id: string, askForFolders = true): ServerRecord => ({
  id,
  name: id,
  transport: { type: 'stdio', command: 'node', args: [], env: {} },
  enabled: true,
  sharing: true,
  sandbox: true,
  network: true,
  askForFolders,
  addedAt: '2026-01-01T00:00:00.000Z',
});

const registry = (servers: ServerRecord[], grants: Registry['grants'] = {}): Registry => ({
  schemaVersion: 2,
  roots: [],
  servers,
  grants,
  settings: { locale: 'system', theme: 'system' },
});

describe('ConsentRequests', () => {
  it('raises one request per ungranted server, and drops it once granted', () => {
    const consent = new ConsentRequests();
    const before = registry([server('a'), server('b')]);
    expect(consent.raiseIfUngranted('a', before)).toBe(true);
    expect(consent.raiseIfUngranted('a', before)).toBe(false);
    expect(consent.raiseIfUngranted('b', before)).toBe(true);
    expect(consent.settle(registry([server('a'), server('b')], { a: { r1: 'read-write' } }))).toBe(true);
    expect(consent.list().map((request) => request.serverId)).toEqual(['b']);
  });

  it('never raises one for a server set not to ask, and drops an open one when it is set so', () => {
    const consent = new ConsentRequests();
    expect(consent.raiseIfUngranted('quiet', registry([server('quiet', false)]))).toBe(false);
    expect(consent.raiseIfUngranted('a', registry([server('a')]))).toBe(true);
    expect(consent.settle(registry([server('a', false)]))).toBe(true);
    expect(consent.list()).toEqual([]);
  });

  it('drops a request when sharing is turned off for the server', () => {
    const consent = new ConsentRequests();
    consent.raiseIfUngranted('a', registry([server('a')]));
    expect(consent.settle(registry([{ ...server('a'), sharing: false }]))).toBe(true);
    expect(consent.list()).toEqual([]);
  });

  it('"Not now" keeps a server quiet through its restarts, until the app starts again', () => {
    const consent = new ConsentRequests();
    const state = registry([server('a')]);
    consent.raiseIfUngranted('a', state);
    consent.dismiss(consent.list()[0]!.id);
    // The server restarts and asks again: no new request in this app session.
    expect(consent.raiseIfUngranted('a', state)).toBe(false);
    expect(new ConsentRequests().raiseIfUngranted('a', state)).toBe(true);
    expect(() => consent.dismiss('no-such-request')).toThrow(/No consent request/);
  });
});
