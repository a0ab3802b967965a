// A grant change and a setting changed elsewhere, worded in each language from the entry's data:
// the folders as the person knows them (~/…), their modes, and who made the change.
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/domain.js';
import { activityMessage } from '../../shared/i18n/activity-message.js';
import { createTranslator } from '../../shared/i18n/translate.js';

const grants: ActivityEntry = {
  seq: 1,
  at: 0,
  kind: 'grants',
  message: 'Granted ~/code/a (read-only), ~/code/b (read-write); revoked ~/old (read-write), from the CLI.',
  code: 'grants-changed',
  source: 'cli',
  grants: {
    granted: [
      { path: '/home/me/code/a', shown: '~/code/a', mode: 'read-only' },
      { path: '/home/me/code/b', shown: '~/code/b', mode: 'read-write' },
    ],
    revoked: [{ path: '/home/me/old', shown: '~/old', mode: 'read-write' }],
    modeChanged: [],
  },
};
const modeChange: ActivityEntry = {
  ...grants,
  source: 'other',
  grants: { granted: [], revoked: [], modeChanged: [{ path: '/srv/data', shown: '/srv/data', mode: 'read-only' }] },
};
const disabled: ActivityEntry = { seq: 2, at: 0, kind: 'restart', message: 'Disabled, from this app.', code: 'config-disabled', source: 'this-app' };

describe('activity messages with folders and sources', () => {
  it('English', () => {
    const t = createTranslator('en');
    expect(activityMessage(t, grants)).toBe('Granted ~/code/a (read-only), ~/code/b (read-write). Revoked ~/old (read-write), from the CLI.');
    expect(activityMessage(t, modeChange)).toBe('Changed the mode of /srv/data (read-only), from another process.');
    expect(activityMessage(t, disabled)).toBe('Switched off, from this app.');
  });

  it('German', () => {
    const t = createTranslator('de');
    expect(activityMessage(t, grants)).toBe('Freigegeben: ~/code/a (nur Lesen), ~/code/b (Lesen und Schreiben). Entzogen: ~/old (Lesen und Schreiben), über die Kommandozeile.');
    expect(activityMessage(t, modeChange)).toBe('Modus geändert: /srv/data (nur Lesen), von einem anderen Prozess.');
    expect(activityMessage(t, disabled)).toBe('Ausgeschaltet, in dieser App.');
  });

  it('Chinese', () => {
    const t = createTranslator('zh-CN');
    expect(activityMessage(t, grants)).toBe('已授予 ~/code/a（只读）、~/code/b（读写）；已撤销 ~/old（读写）（来自命令行）。');
    expect(activityMessage(t, modeChange)).toBe('已更改模式：/srv/data（只读）（来自其他进程）。');
    expect(activityMessage(t, disabled)).toBe('已关闭（来自本应用）。');
  });

  it("names the source once: a code this build does not know shows the host's English, which carries it; a known one gets it in the language (#30 item 5)", () => {
    const t = createTranslator('en');
    const newer = { seq: 3, at: 0, kind: 'restart', message: 'Something new changed, from the CLI.', code: 'from-a-newer-host', source: 'cli' } as unknown as ActivityEntry;
    expect(activityMessage(t, newer)).toBe('Something new changed, from the CLI.');
    const writable: ActivityEntry = { seq: 4, at: 0, kind: 'restart', message: 'The protected paths you chose to leave writable changed, from the CLI.', code: 'config-writable', source: 'cli' };
    expect(activityMessage(t, writable)).toBe('The protected paths you chose to leave writable changed, from the CLI.');
    expect(activityMessage(createTranslator('de'), writable)).not.toContain('from the CLI');
  });
});
