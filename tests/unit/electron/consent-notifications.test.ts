// The desktop notification for folder requests, against the shared electron stand-in: one per
// burst (replacing the last), none while the window is in front, a click brings the window back.
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConsentRequest, HostState, ServerView } from '../../../shared/domain.js';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);
const { FakeNotification, resetElectronMock } = await import('./electron-mock.js');
const { setupConsentNotifications } = await import('../../../electron/main/consent-notifications.js');

const server = (id: string, name: string) => ({ id, name }) as ServerView;
const request = (id: string, serverId: string): ConsentRequest => ({ id, serverId, at: 0 });

function fakeHost(initial: ConsentRequest[] = []) {
  const emitter = new EventEmitter();
  let state = { consentRequests: initial, servers: [server('a', 'github'), server('b', 'everything'), server('c', 'fs')], settings: { locale: 'system', theme: 'system' } } as unknown as HostState;
  return {
    getState: () => state,
    on: (event: string, listener: (state: HostState) => void) => void emitter.on(event, listener),
    off: (event: string, listener: (state: HostState) => void) => void emitter.off(event, listener),
    push(patch: Partial<HostState>) {
      state = { ...state, ...patch };
      emitter.emit('state', state);
    },
  };
}

beforeEach(() => resetElectronMock());

describe('consent notifications', () => {
  it('notifies once per new request burst, names a single server, and replaces the last one', () => {
    const host = fakeHost();
    const show = vi.fn();
    setupConsentNotifications(host as never, { isFocused: () => false, show, systemLocale: () => 'en-US' });

    host.push({ consentRequests: [request('r1', 'a')] });
    expect(FakeNotification.instances.map((n) => n.options.title)).toEqual(['github asked for folders']);
    expect(FakeNotification.instances[0]!.show).toHaveBeenCalledOnce();

    // The same open request in a later state: nothing new.
    host.push({ consentRequests: [request('r1', 'a')] });
    expect(FakeNotification.instances).toHaveLength(1);

    host.push({ consentRequests: [request('r1', 'a'), request('r2', 'b'), request('r3', 'c')] });
    expect(FakeNotification.instances.map((n) => n.options.title)).toEqual(['github asked for folders', '3 servers asked for folders']);
    expect(FakeNotification.instances[0]!.close).toHaveBeenCalled();

    FakeNotification.instances[1]!.emit('click');
    expect(show).toHaveBeenCalledOnce();
  });

  it('stays quiet while the window is focused, for requests open at start, and where the OS has none', () => {
    const host = fakeHost([request('old', 'a')]);
    let focused = true;
    setupConsentNotifications(host as never, { isFocused: () => focused, show: vi.fn(), systemLocale: () => 'en-US' });
    host.push({ consentRequests: [request('old', 'a'), request('r2', 'b')] });
    expect(FakeNotification.instances).toHaveLength(0);
    focused = false;
    FakeNotification.supported = false;
    host.push({ consentRequests: [request('old', 'a'), request('r2', 'b'), request('r3', 'c')] });
    expect(FakeNotification.instances).toHaveLength(0);
  });

  it('speaks the UI’s language: the setting, else the OS’s', () => {
    const host = fakeHost();
    setupConsentNotifications(host as never, { isFocused: () => false, show: vi.fn(), systemLocale: () => 'de-DE' });
    host.push({ consentRequests: [request('r1', 'a')] });
    host.push({ consentRequests: [request('r1', 'a'), request('r2', 'b')], settings: { locale: 'zh-CN', theme: 'system' } });
    expect(FakeNotification.instances.map((n) => n.options.title)).toEqual(['github hat nach Ordnern gefragt', '2 个服务器请求访问文件夹']);
  });
});
