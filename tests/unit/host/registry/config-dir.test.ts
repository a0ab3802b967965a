import { describe, expect, it } from 'vitest';
import { defaultConfigDir, resolveConfigDir } from '../../../../electron/host/registry/config-dir.js';

describe('config dir', () => {
  it('matches Electron userData per platform', () => {
    expect(defaultConfigDir('linux', {}, '/home/u')).toBe('/home/u/.config/MCP Roots Manager');
    expect(defaultConfigDir('linux', { XDG_CONFIG_HOME: '/x' }, '/home/u')).toBe('/x/MCP Roots Manager');
    expect(defaultConfigDir('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Application Support/MCP Roots Manager');
    expect(defaultConfigDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u')).toContain('MCP Roots Manager');
  });

  it('prefers --config-dir, then MCP_ROOTS_CONFIG_DIR', () => {
    expect(resolveConfigDir('/flag', { MCP_ROOTS_CONFIG_DIR: '/env' })).toBe('/flag');
    expect(resolveConfigDir(undefined, { MCP_ROOTS_CONFIG_DIR: '/env' })).toBe('/env');
  });
});
