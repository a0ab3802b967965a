// The desktop app claims its registry before it starts a server; where `mcp-roots serve` holds it,
// it says where that one is, in the system's language, and quits.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { appHostHolder, claimAppHost } from '../../../electron/host/status/app-host-claim.js';
import { claimRegistryOrQuit, oneHostWords } from '../../../electron/main/one-host.js';
import { removeTempDirs, tempDir } from '../../support/index.js';
import { electronMock, resetElectronMock } from './electron-mock.js';

const children: ChildProcess[] = [];
beforeEach(() => resetElectronMock());
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  electronMock.app.removeAllListeners();
  removeTempDirs();
});

describe('one app host per registry, the desktop side', () => {
  it('claims a free registry and lets go of it when the app quits', () => {
    const configDir = tempDir('one-host-');
    expect(claimRegistryOrQuit(configDir)).toBeDefined();
    expect(appHostHolder(configDir)).toMatchObject({ pid: process.pid, kind: 'app' });
    electronMock.app.emit('will-quit');
    expect(appHostHolder(configDir)).toBeUndefined();
  });

  it('where serve holds the registry: says where it is and exits 1, starting nothing', () => {
    const configDir = tempDir('one-host-');
    const serve = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(serve);
    const held = claimAppHost(configDir, 'serve', serve.pid);
    if (!held.ok) throw new Error('not claimed');
    held.claim.setUrl('http://127.0.0.1:8765');
    electronMock.app.getLocale.mockReturnValueOnce('de-DE');
    expect(claimRegistryOrQuit(configDir)).toBeUndefined();
    expect(electronMock.dialog.showErrorBox).toHaveBeenCalledWith('MCP Roots Manager läuft bereits', expect.stringContaining(`(PID ${serve.pid}) unter http://127.0.0.1:8765`));
    expect(electronMock.app.exit).toHaveBeenCalledWith(1);
  });

  it('has its words in English, German and Chinese', () => {
    const holder = { pid: 42, kind: 'serve' as const, startedAt: 0, url: 'http://127.0.0.1:1' };
    expect(oneHostWords('en-US').body(holder)).toContain('would run each of them twice');
    expect(oneHostWords('de').body(holder)).toContain('doppelt');
    expect(oneHostWords('zh-CN').body(holder)).toContain('运行两次');
  });
});
