// A server's state in words: its lifecycle while it runs; off, failed and unknown win over it.
import { describe, expect, it } from 'vitest';
import { LIFECYCLE_STATES } from '../../shared/domain.js';
import { connectionWords } from '../../renderer/src/components/connection-words.js';
import { restartForecast } from '../../renderer/src/components/restart-forecast.js';
import { createTranslator } from '../../shared/i18n/translate.js';

const en = createTranslator('en');
const de = createTranslator('de');
const zh = createTranslator('zh-CN');

describe('connection words', () => {
  it('names every lifecycle state in every language, each differently', () => {
    for (const t of [en, de, zh]) {
      const words = LIFECYCLE_STATES.map((state) => t(connectionWords('connected', state).key));
      expect(new Set(words).size).toBe(LIFECYCLE_STATES.length);
    }
    expect(en(connectionWords('connected', 'draining').key)).toBe('Finishing calls');
    expect(en(connectionWords('connected', 'ready').key)).toBe('Connected');
  });

  it('says disabled, error and unknown whatever the lifecycle, and falls back to the state without one', () => {
    expect(en(connectionWords('error', 'backing-off').key)).toBe('Error');
    expect(en(connectionWords('disabled', 'stopped').key)).toBe('Disabled');
    expect(connectionWords('error', 'backing-off').tone).toBe('danger');
    expect(en(connectionWords('connected', undefined).key)).toBe('Connected');
    expect(connectionWords('disconnected', 'held-off')).toEqual({ key: 'lifecycle.held-off', tone: 'warning' });
  });
});

describe('restart forecast', () => {
  it('says "applies by restarting" with the why and the drain limit, from the host’s forecast', () => {
    const said = restartForecast(en, { name: 'filesystem', changeRestarts: { grant: 'mounts', revoke: 'forget' } });
    expect(said?.grant).toBe('Applies by restarting filesystem: its sandbox holds exactly its granted folders, fixed at start. Its running calls finish first (at most 30 s).');
    expect(said?.revoke).toMatch(/^Applies by restarting filesystem: an empty list alone/);
    expect(restartForecast(de, { name: 'fs', changeRestarts: { grant: 'reask' } })?.grant).toMatch(/^Wird durch einen Neustart von fs wirksam/);
  });

  it('says nothing where no restart is forecast, or for a failed server that is only started again', () => {
    expect(restartForecast(en, { name: 'fs', changeRestarts: {} })).toBeUndefined();
    expect(restartForecast(en, { name: 'fs', changeRestarts: undefined })).toBeUndefined();
    expect(restartForecast(en, { name: 'fs', changeRestarts: { grant: 'retry', revoke: 'retry' } })).toBeUndefined();
  });
});
