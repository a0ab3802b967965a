// The preload as the page sees it: what contextBridge.exposeInMainWorld received.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { channels, eventNames } from '../../../shared/contract.js';
import type { HostState } from '../../../shared/domain.js';
import type { RootsManagerApi } from '../../../electron/preload/index.js';
import { electronMock } from './electron-mock.js';

let api: RootsManagerApi;

beforeAll(async () => {
  await import('../../../electron/preload/index.js');
  expect(electronMock.contextBridge.exposeInMainWorld).toHaveBeenCalledOnce();
  expect(electronMock.contextBridge.exposeInMainWorld).toHaveBeenCalledWith('rootsManager', expect.any(Object));
  api = electronMock.exposed.rootsManager as RootsManagerApi;
});

beforeEach(() => {
  electronMock.ipcRenderer.invoke.mockClear();
  electronMock.ipcRenderer.removeAllListeners();
});

/** Every function reachable from the exposed object, by dotted path. */
function functionPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'function') return [prefix];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => functionPaths(child, prefix ? `${prefix}.${key}` : key));
}

describe('window.rootsManager', () => {
  it('is exactly the contract channels, the event subscriptions and the desktop extras', () => {
    const expected = [
      ...channels,
      ...eventNames.map((name) => `on.${name}`),
      'desktop.pickFolders',
      'desktop.pathsForFiles',
      'desktop.openFolder',
    ];
    expect(functionPaths(api).sort()).toEqual(expected.sort());
  });

  it('exposes no raw IPC: no invoke, send, sendSync, ipcRenderer, nor the ipcRenderer object itself', () => {
    const banned = /^(invoke|send|sendSync|sendTo|sendToHost|postMessage|ipcRenderer|removeAllListeners|emit)$/i;
    for (const path of functionPaths(api)) expect(path.split('.').at(-1)).not.toMatch(banned);
    const seen: unknown[] = [];
    const walk = (value: unknown): void => {
      if (typeof value !== 'object' || value === null || seen.includes(value)) return;
      seen.push(value);
      expect(value).not.toBe(electronMock.ipcRenderer);
      Object.values(value).forEach(walk);
    };
    walk(api);
  });

  it('turns roots.add(input) into one invoke of the roots.add channel with exactly that input', async () => {
    electronMock.ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: { added: [], failed: [] } });
    const input = { paths: ['/home/me/project'] };
    await expect(api.roots.add(input)).resolves.toEqual({ ok: true, value: { added: [], failed: [] } });
    expect(electronMock.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith('roots.add', input);
  });

  it('maps every channel to its own name', async () => {
    for (const channel of channels) {
      const [group, method] = channel.split('.') as [string, string];
      const groupApi = (api as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[group]!;
      await groupApi[method]!({});
      expect(electronMock.ipcRenderer.invoke).toHaveBeenLastCalledWith(channel, {});
    }
  });

  it('on.state delivers the payload only, and the returned function unsubscribes', () => {
    const received: unknown[] = [];
    const unsubscribe = api.on.state((state) => received.push(state));
    expect(electronMock.ipcRenderer.listenerCount('event.state')).toBe(1);
    const state = { revision: 3 } as HostState;
    electronMock.ipcRenderer.emit('event.state', { sender: 'the IpcRendererEvent' }, state);
    expect(received).toEqual([state]);
    unsubscribe();
    expect(electronMock.ipcRenderer.listenerCount('event.state')).toBe(0);
    electronMock.ipcRenderer.emit('event.state', {}, state);
    expect(received).toHaveLength(1);
  });

  it('on.activity subscribes to its own channel', () => {
    const received: unknown[] = [];
    const unsubscribe = api.on.activity((activity) => received.push(activity));
    electronMock.ipcRenderer.emit('event.state', {}, { revision: 1 });
    electronMock.ipcRenderer.emit('event.activity', {}, { serverId: 's1' });
    expect(received).toEqual([{ serverId: 's1' }]);
    unsubscribe();
  });

  it('refuses a listener that is not a function', () => {
    expect(() => api.on.state('nope' as unknown as () => void)).toThrow(TypeError);
  });
});

describe('desktop extras', () => {
  it('pickFolders resolves to the picked paths and rejects with the error message', async () => {
    electronMock.ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: ['/a'] });
    await expect(api.desktop.pickFolders()).resolves.toEqual(['/a']);
    expect(electronMock.ipcRenderer.invoke).toHaveBeenLastCalledWith('dialog.pickFolders', {});
    electronMock.ipcRenderer.invoke.mockResolvedValueOnce({ ok: false, error: { code: 'internal', message: 'no display' } });
    await expect(api.desktop.pickFolders()).rejects.toThrow('no display');
  });

  it('every desktop extra has a caller in the renderer (an unused privileged channel is removed, not kept)', () => {
    const rendererDir = path.resolve(import.meta.dirname, '../../../renderer/src');
    const text = fs
      .readdirSync(rendererDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => fs.readFileSync(path.join(rendererDir, file), 'utf8'))
      .join('\n');
    for (const name of Object.keys(api.desktop)) expect(text, `renderer calls desktop.${name}`).toMatch(new RegExp(`desktop\\.${name}\\b`));
  });

  it('pathsForFiles resolves dropped files through webUtils and skips what has no path', () => {
    const files = [{ path: '/home/me/a' }, { path: '' }, { path: '/home/me/b' }, null] as unknown as File[];
    expect(api.desktop.pathsForFiles(files)).toEqual(['/home/me/a', '/home/me/b']);
    expect(electronMock.webUtils.getPathForFile).toHaveBeenCalledTimes(4);
  });
});
