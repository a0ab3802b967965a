// Which command "Use with…" writes, per kind of installation, and that import knows each as ours.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installationLauncher, proxiedServerOf, proxyCommand } from '../../../electron/import/proxy-launcher.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const script = path.join(repoRoot, 'bin', 'mcp-roots.js');

describe('the launcher of this installation', () => {
  it('is the packaged app itself: its executable runs `proxy` (the runAsNode fuse is off, so no ELECTRON_RUN_AS_NODE)', () => {
    const launcher = installationLauncher({ versions: { ...process.versions, electron: '45.4.1' }, execPath: '/opt/MCP Roots Manager/mcp-roots-manager', env: {} });
    expect(proxyCommand(launcher, 'filesystem', '/cfg')).toEqual({
      command: '/opt/MCP Roots Manager/mcp-roots-manager',
      args: ['proxy', '--config-dir', '/cfg', 'filesystem'],
      env: undefined,
    });
  });

  it('is the AppImage file, not its mount point (a new one at every start)', () => {
    const launcher = installationLauncher({
      versions: { ...process.versions, electron: '45.4.1' },
      execPath: '/tmp/.mount_mcpXyZ/mcp-roots-manager',
      env: { APPIMAGE: '/home/me/Apps/mcp-roots-manager.AppImage' },
    });
    expect(proxyCommand(launcher, 'fs').command).toBe('/home/me/Apps/mcp-roots-manager.AppImage');
  });

  it('is Electron as Node with bin/mcp-roots.js when run from a checkout (`electron .`)', () => {
    const launcher = installationLauncher({
      versions: { ...process.versions, electron: '45.4.1' },
      execPath: '/repo/node_modules/electron/dist/electron',
      env: {},
      defaultApp: true,
    });
    expect(proxyCommand(launcher, 'fs')).toEqual({
      command: '/repo/node_modules/electron/dist/electron',
      args: [script, 'proxy', 'fs'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
  });

  it('is node with bin/mcp-roots.js in plain Node (the CLI, serve)', () => {
    const launcher = installationLauncher({ versions: { ...process.versions }, execPath: '/usr/bin/node', env: {} });
    expect(proxyCommand(launcher, 'fs')).toEqual({ command: '/usr/bin/node', args: [script, 'proxy', 'fs'], env: undefined });
  });

  it.each([
    ['/opt/MCP Roots Manager/mcp-roots-manager', 'linux'],
    ['/usr/bin/mcp-roots-manager', 'linux via the .deb link'],
    ['/Applications/MCP Roots Manager.app/Contents/MacOS/MCP Roots Manager', 'macOS'],
    ['C:\\Users\\me\\AppData\\Local\\Programs\\MCP Roots Manager\\MCP Roots Manager.exe', 'Windows'],
  ])('an entry starting %s (%s) is known as a proxied server, so import never takes it for a server', (command) => {
    expect(proxiedServerOf(command, ['proxy', '--config-dir', '/cfg', 'filesystem'])).toBe('filesystem');
  });
});
