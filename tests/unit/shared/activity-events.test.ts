// Every activity code has its words in every language: rendered from the one table with sample
// parameters, each language says something of its own, with no parameter left unfilled (#29 item 3).
// A new code without a sample here does not compile; one without words fails below.
import { describe, expect, it } from 'vitest';
import { ACTIVITY_CODES, type ActivityCode, type ActivityParams, type LiveRestartWhy } from '../../../shared/activity-event.js';
import type { ActivityEntry } from '../../../shared/domain.js';
import { activityMessage, englishActivity } from '../../../shared/i18n/activity-message.js';
import { createTranslator } from '../../../shared/i18n/translate.js';

const SAMPLES: { [C in ActivityCode]: ActivityParams[C] } = {
  connected: { protocol: '2025-06-18', server: 'demo 1.0.0' },
  disconnected: {},
  'closed-by-server': {},
  'closed-for-flooding': {},
  'reconnect-requested': {},
  'roots-answered': { count: 2 },
  'list-changed-sent': {},
  'list-changed-failed': { detail: 'EPIPE' },
  'consent-raised': {},
  'started-with-folders': { count: 2 },
  'no-reask': { windowMs: 2000 },
  'slow-probe-answer': { afterMs: 900 },
  'restart-arguments': {},
  'restart-mounts': {},
  'restart-forget': {},
  'restart-reask': {},
  'restart-retry': {},
  'restart-live': { why: 'failed', detail: 'EBUSY' },
  'held-blocked-path': {},
  'held-setup': {},
  'held-exits-at-start': {},
  'config-enabled': {},
  'config-disabled': {},
  'config-sharing-on': {},
  'config-sharing-off': {},
  'config-sandbox-on': {},
  'config-sandbox-off': {},
  'config-network-on': {},
  'config-network-off': {},
  'config-own-sandboxes-on': {},
  'config-own-sandboxes-off': {},
  'config-local-ports': {},
  'config-writable': {},
  'config-hosts-limited': {},
  'config-hosts-any': {},
  'config-limits': {},
  'config-changed': {},
  'hosts-live': {},
  'network-refused': { detail: '198.18.0.4 tcp/443' },
  'limit-tasks': { count: 64 },
  'limit-memory': { mib: 512 },
  'limit-tmp': { mib: 64 },
  'limit-files': { count: 256 },
  'sandbox-verified': { pid: '12345', count: 2, protected: 3, sockets: 'refused', static: 'yes' },
  'sandbox-verified-view': { pid: '12345', count: 2, sockets: 'own-network' },
  'sandbox-unverified': { detail: '/proc/sys is writable inside' },
  'live-applied': { ms: 12, mounted: '/work/a', unmounted: '-' },
  'sandbox-blocked': { path: '/work/b' },
  'sandbox-blocked-read-only': { path: '/work/b' },
  'read-paced': { rate: 200 },
  'read-paused': { rate: 200, seconds: 0.2, pauseSeconds: 0.3, pause: 1, count: 3 },
  'flood-closed': { rate: 200, count: 2 },
  'long-line': { mb: 10 },
  'grants-changed': {},
  'drain-waiting': { count: 2, seconds: 30 },
  'drain-cut': { count: 2, seconds: 30 },
  'server-failure': {},
  'error-text': { detail: 'Boom.' },
  stderr: { line: 'listening on stdio' },
  'file-op': { op: 'write', path: '/work/a/notes.md', bytes: 12 },
  'network-row': { what: 'lookup', verdict: 'refused', target: 'example.com' },
};

/** The server's or a library's own words: the same in every language, by design. */
const VERBATIM = new Set<ActivityCode>(['error-text', 'stderr']);

function entryOf(code: ActivityCode, params: object): ActivityEntry {
  return {
    seq: 1,
    at: 0,
    kind: 'info',
    message: '',
    code,
    params: params as ActivityEntry['params'],
    ...(code === 'grants-changed' ? { grants: { granted: [{ path: '/work/a', shown: '~/a', mode: 'read-only' }], revoked: [], modeChanged: [] } } : {}),
    ...(code === 'server-failure' ? { failure: { code: 'exited', message: 'Exited with code 1.', exitCode: 1 } } : {}),
  } as ActivityEntry;
}

const LANGUAGES = ['de', 'zh-CN'] as const;
const english = createTranslator('en');

describe('activity codes in every language', () => {
  const cases: [string, ActivityEntry][] = ACTIVITY_CODES.map((code) => [code, entryOf(code, SAMPLES[code])]);
  // Each reason a live change became a restart has words of its own.
  const whys: LiveRestartWhy[] = ['unavailable', 'not-running', 'failed', 'unverified', 'view-gone', 'view-refused', 'hosts-failed'];
  for (const why of whys) cases.push([`restart-live/${why}`, entryOf('restart-live', { why })]);

  it.each(cases)('%s', (_name, entry) => {
    const en = activityMessage(english, entry);
    expect(en.trim()).not.toBe('');
    expect(en).not.toMatch(/\{\w+\}|activityMsg\./);
    expect(englishActivity(entry)).toBe(en);
    for (const language of LANGUAGES) {
      const words = activityMessage(createTranslator(language), entry);
      expect(words).not.toMatch(/\{\w+\}|activityMsg\./);
      // A key missing in a language falls back to English: caught here.
      if (!VERBATIM.has(entry.code)) expect(words, `${entry.code} in ${language}`).not.toBe(en);
      // A process id is a name, not a quantity: never grouped ("12.345" in German).
      if (entry.params?.pid !== undefined) expect(words).toContain('12345');
    }
  });
});
