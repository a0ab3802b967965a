// Where each host keeps its config, on every platform (computed, so testable anywhere).
import { describe, expect, it } from 'vitest';
import { configLocations, existingConfigSources } from '../../../electron/import/config-locations.js';
import { inferHostKind } from '../../../electron/import/host-kind.js';
import { parseJsonc, stripJsonc } from '../../../electron/import/jsonc.js';

describe('configLocations', () => {
  it('macOS', () => {
    const paths = configLocations({ platform: 'darwin', env: {}, home: '/Users/ada', listDir: () => [] }).map((s) => `${s.host} ${s.path}`);
    expect(paths).toEqual([
      'claude-desktop /Users/ada/Library/Application Support/Claude/claude_desktop_config.json',
      'vscode /Users/ada/Library/Application Support/Code/User/mcp.json',
      'vscode /Users/ada/Library/Application Support/Code - Insiders/User/mcp.json',
      'cursor /Users/ada/.cursor/mcp.json',
      'claude-code /Users/ada/.claude.json',
    ]);
  });

  it('Windows, including every MSIX package folder of Claude', () => {
    const env = { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' };
    const listDir = (dir: string) => (dir === 'C:\\Users\\ada\\AppData\\Local\\Packages' ? ['Microsoft.Whatever_1', 'Claude_pzs8sxrjxfjjc'] : []);
    const sources = configLocations({ platform: 'win32', env, home: 'C:\\Users\\ada', listDir });
    expect(sources.filter((s) => s.host === 'claude-desktop').map((s) => s.path)).toEqual([
      'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      'C:\\Users\\ada\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json',
    ]);
    expect(sources.find((s) => s.host === 'vscode')?.path).toBe('C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json');
    expect(sources.find((s) => s.host === 'cursor')?.path).toBe('C:\\Users\\ada\\.cursor\\mcp.json');
  });

  it('Linux honours XDG_CONFIG_HOME; workspaces add their project files', () => {
    const sources = configLocations({ platform: 'linux', env: { XDG_CONFIG_HOME: '/home/ada/.cfg' }, home: '/home/ada', workspaces: ['/home/ada/shop'] });
    expect(sources.find((s) => s.host === 'claude-desktop')?.path).toBe('/home/ada/.cfg/Claude/claude_desktop_config.json');
    expect(sources.filter((s) => s.scope === 'workspace').map((s) => `${s.host} ${s.path}`)).toEqual([
      'vscode /home/ada/shop/.vscode/mcp.json',
      'cursor /home/ada/shop/.cursor/mcp.json',
      'claude-code /home/ada/shop/.mcp.json',
    ]);
    const existing = existingConfigSources({ platform: 'linux', env: {}, home: '/home/ada' }, (file) => file.endsWith('.claude.json'));
    expect(existing).toEqual([{ host: 'claude-code', path: '/home/ada/.claude.json', scope: 'user' }]);
  });

  it('infers the host from a file name', () => {
    expect(inferHostKind('C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json')).toBe('claude-desktop');
    expect(inferHostKind('/p/.vscode/mcp.json')).toBe('vscode');
    expect(inferHostKind('/home/ada/.config/Code/User/mcp.json')).toBe('vscode');
    expect(inferHostKind('/p/.cursor/mcp.json')).toBe('cursor');
    expect(inferHostKind('/p/.mcp.json')).toBe('claude-code');
    expect(inferHostKind('/home/ada/.claude.json')).toBe('claude-code');
    expect(inferHostKind('/p/servers.json')).toBeUndefined();
  });
});

describe('parseJsonc', () => {
  it('takes comments and trailing commas, but not inside strings', () => {
    const text = '{\n // note\n "a": "http://x/*y*/", /* block */ "b": [1, 2,],\n}';
    expect(parseJsonc(text, 'f.json')).toEqual({ a: 'http://x/*y*/', b: [1, 2] });
    expect(stripJsonc(text).stripped).toBe(true);
    expect(stripJsonc('{"a": "// not a comment"}').stripped).toBe(false);
  });

  it('says where a file is broken', () => {
    expect(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}', 'x.json')).toThrow(/x\.json is not valid JSON at line 3, column 3/);
    expect(() => parseJsonc('  \n', 'empty.json')).toThrow(/empty\.json is empty/);
  });
});
