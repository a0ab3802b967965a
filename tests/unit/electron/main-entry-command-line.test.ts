// The installed app's executable given a command (`<app> --config-dir DIR roots add …`, as a host
// config runs `<app> proxy SERVER`): the command line runs in this process, before and instead of
// the desktop app: no single-instance lock, no ready, no window; the exit code is the command's.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { FakeBrowserWindow, electronMock } from './electron-mock.js';

const savedArgv = process.argv;
afterAll(() => {
  process.argv = savedArgv;
  vi.restoreAllMocks();
  removeTempDirs();
});

it('runs the command line and exits with its code, without taking the lock or opening a window', async () => {
  const configDir = tempDir('mcp-roots-cli-in-app-');
  const folder = tempDir('a-root-');
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  process.argv = ['/opt/MCP Roots Manager/mcp-roots-manager', '--config-dir', configDir, 'roots', 'add', folder];
  await import('../../../electron/main/index.js');
  expect(exit).toHaveBeenCalledWith(0);
  const registry = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { roots: { path: string }[] };
  expect(registry.roots.map((root) => root.path)).toEqual([folder]);
  expect(electronMock.app.requestSingleInstanceLock).not.toHaveBeenCalled();
  expect(electronMock.app.whenReady).not.toHaveBeenCalled();
  expect(electronMock.app.enableSandbox).not.toHaveBeenCalled();
  expect(FakeBrowserWindow.instances).toHaveLength(0);
});
