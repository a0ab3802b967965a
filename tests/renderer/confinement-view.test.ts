// What a screen may claim about a server's confinement: "Enforced" only for a running, confined
// server; read-only said as enforced only there; every reason in every language from its code.
import { describe, expect, it } from 'vitest';
import type { ServerView, TransportConfig } from '../../shared/domain.js';
import type { ServerConfinement } from '../../shared/sandbox.js';
import { createTranslator } from '../../shared/i18n/translate.js';
import { en } from '../../shared/i18n/en.js';
import { de } from '../../shared/i18n/de.js';
import { zhCN } from '../../shared/i18n/zh-cn.js';
import { confinementLabel, confinementLook, enforcesModes, grantModeLabel, proxySessionLook } from '../../renderer/src/components/confinement-view.js';

type Server = Pick<ServerView, 'transport' | 'enabled' | 'sandbox' | 'status'>;
const stdio: TransportConfig = { type: 'stdio', command: 'node', args: ['server.js'], env: {} };

function server(confinement: ServerConfinement | undefined, overrides: Partial<Server> = {}): Server {
  return {
    transport: stdio,
    enabled: true,
    sandbox: true,
    status: { state: 'connected', rootsRequestCount: 0, listChangedCount: 0, confinement },
    ...overrides,
  };
}

const en_ = createTranslator('en');

describe('confinementLook', () => {
  it('calls a verified confined server enforced, with its check time and network fact', () => {
    const look = confinementLook(server({ state: 'enforced', kind: 'bwrap', network: false, selfCheck: { verified: true, at: 1_000, detail: 'ok' } }));
    expect(look).toEqual({ state: 'enforced', verified: 'yes', at: 1_000, detail: 'ok', network: false });
    expect(enforcesModes(look)).toBe(true);
    expect(confinementLabel(en_, look)).toBe('Enforced (OS sandbox)');
  });

  it('carries how its grants reach it: its file view, or bind mounts fixed at start (said in every language)', () => {
    expect(confinementLook(server({ state: 'enforced', kind: 'bwrap', network: true, grants: 'view' }))).toMatchObject({ state: 'enforced', grants: 'view' });
    expect(confinementLook(server({ state: 'enforced', kind: 'bwrap', network: true, grants: 'mounts' }))).toMatchObject({ state: 'enforced', grants: 'mounts' });
    for (const locale of ['en', 'de', 'zh-CN'] as const) {
      const help = createTranslator(locale)('sandbox.grantsMountsHelp', { depth: 3 });
      expect(help).toContain('3');
      expect(help).not.toContain('{depth}');
    }
  });

  it('does not let a failed self-check count as enforcing read-only', () => {
    const look = confinementLook(server({ state: 'enforced', kind: 'bwrap', network: true, selfCheck: { verified: false, at: 5, detail: 'the registry was visible' } }));
    expect(look).toMatchObject({ state: 'enforced', verified: 'no' });
    expect(enforcesModes(look)).toBe(false);
    expect(grantModeLabel(en_, true, look)).toBe('read-only (advisory: not enforced)');
  });

  it('gives an advisory server its reason, translated from the code', () => {
    const look = confinementLook(server({ state: 'advisory', reasonCode: 'bwrap-missing', reason: 'bwrap was not found on PATH' }));
    expect(confinementLabel(en_, look)).toBe('Advisory (roots only): bubblewrap is not installed (install the “bubblewrap” package)');
    expect(confinementLabel(createTranslator('de'), look)).toMatch(/^Nur Empfehlung \(nur Roots\): bubblewrap ist nicht installiert/);
    expect(confinementLabel(createTranslator('zh-CN'), look)).toMatch(/^仅建议（仅 roots）：未安装 bubblewrap/);
    expect(grantModeLabel(en_, true, look)).toBe('read-only (advisory: not enforced)');
    expect(grantModeLabel(en_, false, look)).toBe('read-write');
  });

  it('calls a remote server advisory even before it ever connected', () => {
    const look = confinementLook(server(undefined, { transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} }, enabled: false }));
    expect(confinementLabel(en_, look)).toBe('Advisory (roots only): a remote server, it runs elsewhere behind its URL');
  });

  it('says off when the person turned it off, running or not', () => {
    expect(confinementLabel(en_, confinementLook(server({ state: 'off' }, { sandbox: false })))).toBe('Off (you turned it off)');
    expect(confinementLook(server(undefined, { sandbox: false, enabled: false }))).toEqual({ state: 'off' });
  });

  it('never calls a server enforced while it is not running', () => {
    const stale = { state: 'enforced', kind: 'bwrap', network: true, selfCheck: { verified: true, at: 1, detail: 'ok' } } as const;
    const stopped = confinementLook(server(stale, { enabled: false, status: { state: 'disabled', rootsRequestCount: 0, listChangedCount: 0, confinement: stale } }));
    expect(stopped).toEqual({ state: 'idle' });
    expect(enforcesModes(stopped)).toBe(false);
  });

  it('does not call an exited confined server enforced or "checking", but keeps a failed check in view', () => {
    const exited = confinementLook(server({ state: 'enforced', kind: 'bwrap', network: true }, { status: { state: 'error', rootsRequestCount: 0, listChangedCount: 0, confinement: { state: 'enforced', kind: 'bwrap', network: true } } }));
    expect(exited).toEqual({ state: 'idle' });
    const failedCheck = { state: 'enforced', kind: 'bwrap', network: true, selfCheck: { verified: false, at: 9, detail: 'HOME was visible' } } as const;
    const stopped = confinementLook(server(failedCheck, { status: { state: 'error', rootsRequestCount: 0, listChangedCount: 0, confinement: failedCheck } }));
    expect(stopped).toMatchObject({ state: 'enforced', verified: 'no', detail: 'HOME was visible' });
    expect(confinementLook(server({ state: 'enforced', kind: 'bwrap', network: true }, { status: { state: 'connecting', rootsRequestCount: 0, listChangedCount: 0, confinement: { state: 'enforced', kind: 'bwrap', network: true } } }))).toMatchObject({ verified: 'pending' });
  });

  it('says a server that could not be prepared was not started, and why', () => {
    const look = confinementLook(server({ state: 'enforced', setupError: { code: 'command-not-found', message: 'npxx: not found' } }));
    expect(look).toEqual({ state: 'not-started', code: 'command-not-found', message: 'npxx: not found' });
    expect(enforcesModes(look)).toBe(false);
    expect(confinementLabel(en_, look)).toBe('Not started: the sandbox could not be prepared: its command was not found');
  });
});

describe('proxySessionLook', () => {
  it('reads how the proxy process runs, which may differ from the app (another PATH without bwrap)', () => {
    const record = { transport: stdio, sandbox: true };
    const advisory = proxySessionLook(record, { state: 'ready', confinement: { state: 'advisory', reasonCode: 'bwrap-missing', reason: 'x' } });
    expect(confinementLabel(en_, advisory)).toMatch(/^Advisory \(roots only\): bubblewrap is not installed/);
    const verified = proxySessionLook(record, { state: 'restarting', confinement: { state: 'enforced', kind: 'bwrap', network: false, selfCheck: { verified: true, at: 2, detail: 'ok' } } });
    expect(verified).toMatchObject({ state: 'enforced', verified: 'yes', network: false });
    expect(proxySessionLook(record, { state: 'stopped', confinement: { state: 'enforced', kind: 'bwrap', network: true } })).toEqual({ state: 'idle' });
  });
});

describe('the words match the facts', () => {
  // Issue #11, item 10: enforcement can be off or unavailable, so no message may promise that a
  // server "sees only" its folders.
  it('no language says a server sees only its folders', () => {
    const promises = /sees? only|see exactly|只能看到|sieht nur|sehen nur|sehen genau/i;
    for (const dictionary of [en, de, zhCN]) {
      const texts = Object.values(dictionary).flatMap((message) => (typeof message === 'string' ? [message] : Object.values(message)));
      expect(texts.filter((text) => promises.test(text))).toEqual([]);
    }
  });
});
