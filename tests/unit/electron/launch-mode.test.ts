// Which way the app's executable runs: the window, or the `mcp-roots` command line.
import { describe, expect, it } from 'vitest';
import { appArguments, commandLineArguments } from '../../../electron/main/launch-mode.js';

describe('the app executable\'s arguments', () => {
  it('skips the program, and the app folder when run as `electron .`, wherever switches put it', () => {
    const electron = '/repo/node_modules/electron/dist/electron';
    expect(appArguments(['/opt/MCP Roots Manager/mcp-roots-manager', 'proxy', 'fs'], undefined)).toEqual(['proxy', 'fs']);
    expect(appArguments([electron, '.', '--config-dir', '/c'], true)).toEqual(['--config-dir', '/c']);
    // Playwright's _electron.launch puts its own switches before the app folder.
    const playwright = [electron, '--inspect=0', '--remote-debugging-port=0', '--no-sandbox', '/repo', '--config-dir', '/c'];
    expect(appArguments(playwright, true)).toEqual(['--inspect=0', '--remote-debugging-port=0', '--no-sandbox', '--config-dir', '/c']);
    expect(commandLineArguments(appArguments(playwright, true))).toBeUndefined();
    expect(appArguments([electron, '-r', 'hook.js', '/repo', 'proxy', 'fs'], true)).toEqual(['-r', 'hook.js', 'proxy', 'fs']);
    expect(commandLineArguments(appArguments([electron, '/repo', 'proxy', 'fs'], true))).toEqual(['proxy', 'fs']);
  });

  it.each([
    [['proxy', 'filesystem'], ['proxy', 'filesystem']],
    [['proxy', '--config-dir', '/c', 'filesystem'], ['proxy', '--config-dir', '/c', 'filesystem']],
    [['--config-dir', '/c', 'status', '--json'], ['--config-dir', '/c', 'status', '--json']],
    [['--help'], ['--help']],
    [['--version'], ['--version']],
  ])('%j runs the command line', (args, expected) => {
    expect(commandLineArguments(args)).toEqual(expected);
  });

  it.each([
    [[]],
    [['--config-dir', '/c']],
    [['--config-dir=/c']],
    // macOS Finder, Chromium switches, Playwright's debugging switches: all switches.
    [['-psn_0_12345']],
    [['--enable-logging', '--inspect=0', '--remote-debugging-port=0']],
  ])('%j opens the window', (args) => {
    expect(commandLineArguments(args)).toBeUndefined();
  });

  it('never takes the value of --config-dir for a command', () => {
    expect(commandLineArguments(['--config-dir', 'proxy'])).toBeUndefined();
  });
});
