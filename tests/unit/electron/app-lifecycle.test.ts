// App-level glue: which registry, one instance, clean quit, the tray, and host events to the window.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import type { WebContents } from 'electron';
import type { HostState, ServerView } from '../../../shared/domain.js';
import type { RootsHost } from '../../../electron/host/roots-host.js';
import { chooseConfigDir, configDirFlag } from '../../../electron/main/config-location.js';
import { setupGracefulQuit } from '../../../electron/main/graceful-quit.js';
import { forwardHostEvents } from '../../../electron/main/host-events.js';
import { rendererLocation } from '../../../electron/main/renderer-location.js';
import { claimSingleInstance } from '../../../electron/main/single-instance.js';
import { serverSummary, setupTray } from '../../../electron/main/tray.js';
import { FakeTray, FakeWebContents, electronMock, fakeEvent, resetElectronMock } from './electron-mock.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
let signalListenersBefore: Map<string, unknown[]>;

/** Listeners our code added for `signal` during this test (never the test runner's own). */
function addedSignalListeners(signal: (typeof SIGNALS)[number]): ((...args: unknown[]) => void)[] {
  const before = signalListenersBefore.get(signal) ?? [];
  return process.listeners(signal).filter((listener) => !before.includes(listener)) as ((...args: unknown[]) => void)[];
}

beforeEach(() => {
  resetElectronMock();
  signalListenersBefore = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
});
afterEach(() => {
  vi.useRealTimers();
  for (const signal of SIGNALS) for (const listener of addedSignalListeners(signal)) process.off(signal, listener);
});

describe('config dir', () => {
  it.each([
    [['electron', '.', '--config-dir', '/tmp/a'], '/tmp/a'],
    [['app', '--config-dir=/tmp/b'], '/tmp/b'],
    [['app', '--config-dir=/tmp/b', '--config-dir', '/tmp/c'], '/tmp/c'],
    [['app', '--config-dir'], undefined],
    [['app', '--config-dir', '--inspect'], undefined],
    [['app'], undefined],
  ])('reads the flag from %j', (argv, expected) => {
    expect(configDirFlag(argv)).toBe(expected);
  });

  it('defaults to userData, and an explicit flag or env wins (flag first)', () => {
    expect(chooseConfigDir(['app'], {}, '/home/me/.config/MCP Roots Manager')).toEqual({
      dir: '/home/me/.config/MCP Roots Manager',
      explicit: false,
    });
    expect(chooseConfigDir(['app'], { MCP_ROOTS_CONFIG_DIR: '/srv/roots' }, '/ud')).toEqual({ dir: '/srv/roots', explicit: true });
    expect(chooseConfigDir(['app', '--config-dir', 'rel'], { MCP_ROOTS_CONFIG_DIR: '/srv/roots' }, '/ud')).toEqual({
      dir: path.resolve('rel'),
      explicit: true,
    });
  });
});

describe('single instance', () => {
  it('a second launch reveals the first window; without the lock the caller must quit', () => {
    const reveal = vi.fn();
    expect(claimSingleInstance(reveal)).toBe(true);
    electronMock.app.emit('second-instance', fakeEvent(), ['app'], '/');
    expect(reveal).toHaveBeenCalledOnce();
    electronMock.app.requestSingleInstanceLock.mockReturnValueOnce(false);
    expect(claimSingleInstance(reveal)).toBe(false);
  });
});

describe('quitting', () => {
  it('holds the first quit until every server stopped, then exits once', async () => {
    let finishStop!: () => void;
    const stop = vi.fn(() => new Promise<void>((resolve) => (finishStop = resolve)));
    const quit = setupGracefulQuit({ stop });
    expect(quit.isQuitting()).toBe(false);

    const first = fakeEvent();
    electronMock.app.emit('before-quit', first);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(quit.isQuitting()).toBe(true);
    const second = fakeEvent();
    electronMock.app.emit('before-quit', second);
    expect(second.preventDefault).toHaveBeenCalled();
    expect(stop).toHaveBeenCalledOnce();
    expect(electronMock.app.exit).not.toHaveBeenCalled();

    finishStop();
    await vi.waitFor(() => expect(electronMock.app.exit).toHaveBeenCalledWith(0));
    expect(electronMock.app.exit).toHaveBeenCalledOnce();
  });

  it('exits after the deadline when a server hangs, and when stopping fails', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    setupGracefulQuit({ stop: () => new Promise<void>(() => undefined) }, { deadlineMs: 1000 });
    electronMock.app.emit('before-quit', fakeEvent());
    await vi.advanceTimersByTimeAsync(999);
    expect(electronMock.app.exit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(electronMock.app.exit).toHaveBeenCalledWith(0);
    warn.mockRestore();
  });

  it('SIGTERM takes the same clean path', () => {
    setupGracefulQuit({ stop: async () => undefined });
    const [onTerm] = addedSignalListeners('SIGTERM');
    expect(addedSignalListeners('SIGINT')).toHaveLength(1);
    onTerm!('SIGTERM');
    expect(electronMock.app.quit).toHaveBeenCalled();
  });
});

function server(id: string, enabled: boolean, state: ServerView['status']['state']): ServerView {
  return { id, enabled, status: { state, rootsRequestCount: 0, listChangedCount: 0 } } as ServerView;
}

describe('tray', () => {
  it('summarises enabled servers as connected / total', () => {
    const state = { servers: [server('a', true, 'connected'), server('b', true, 'error'), server('c', false, 'disabled')] };
    expect(serverSummary(state)).toEqual({ connected: 1, total: 2, label: '1 of 2 servers connected' });
    expect(serverSummary({ servers: [] }).label).toBe('No servers enabled');
  });

  it('shows the summary, follows state updates, and offers Show and Quit', () => {
    const host = Object.assign(new EventEmitter(), {
      getState: () => ({ servers: [server('a', true, 'connecting')] }) as unknown as HostState,
    });
    const actions = { show: vi.fn(), quit: vi.fn() };
    setupTray(host as unknown as RootsHost, actions);
    const tray = FakeTray.instances[0]!;
    expect(tray.setToolTip).toHaveBeenLastCalledWith('MCP Roots Manager: 0 of 1 servers connected');

    host.emit('state', { servers: [server('a', true, 'connected')] });
    expect(tray.setToolTip).toHaveBeenLastCalledWith('MCP Roots Manager: 1 of 1 servers connected');
    host.emit('state', { servers: [server('a', true, 'connected')] });
    expect(tray.setContextMenu).toHaveBeenCalledTimes(2);

    const menu = tray.setContextMenu.mock.calls.at(-1)![0] as { template: { label?: string; click?: () => void }[] };
    expect(menu.template.map((item) => item.label)).toEqual(['1 of 1 servers connected', undefined, 'Show MCP Roots Manager', 'Quit']);
    menu.template[2]!.click!();
    menu.template[3]!.click!();
    expect(actions.show).toHaveBeenCalledOnce();
    expect(actions.quit).toHaveBeenCalledOnce();
  });
});

describe('host events to the window', () => {
  it('sends state and activity on their event channels, only to a live window on our page', () => {
    const host = new EventEmitter();
    const contents = new FakeWebContents();
    contents.mainFrame.url = 'app://renderer/index.html';
    const stop = forwardHostEvents(
      host as unknown as RootsHost,
      () => contents as unknown as WebContents,
      rendererLocation({ isPackaged: true }).isAppUrl,
    );
    host.emit('state', { revision: 1 });
    host.emit('activity', { serverId: 's', entry: {} });
    expect(contents.send.mock.calls).toEqual([
      ['event.state', { revision: 1 }],
      ['event.activity', { serverId: 's', entry: {} }],
    ]);

    contents.mainFrame.url = 'https://evil.example/';
    host.emit('state', { revision: 2 });
    contents.mainFrame.url = 'app://renderer/index.html';
    contents.destroyed = true;
    host.emit('state', { revision: 3 });
    expect(contents.send).toHaveBeenCalledTimes(2);

    stop();
    expect(host.listenerCount('state') + host.listenerCount('activity')).toBe(0);
  });
});
