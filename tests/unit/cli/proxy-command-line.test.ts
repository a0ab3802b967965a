import { describe, expect, it } from 'vitest';
import { proxyCommandLine } from '../../../electron/cli/proxy-command-line.js';
import { pathLauncher, proxyCommand } from '../../../electron/import/proxy-launcher.js';

describe('proxyCommandLine', () => {
  it('takes the lines hosts launch', () => {
    expect(proxyCommandLine(['proxy', 'fs'])).toEqual({ configDirFlag: undefined, server: 'fs', rootsPolicy: 'registry' });
    expect(proxyCommandLine(['--config-dir', '/c', 'proxy', 'fs'])).toEqual({ configDirFlag: '/c', server: 'fs', rootsPolicy: 'registry' });
    expect(proxyCommandLine(['--config-dir=/c d', 'proxy', '--roots-policy', 'host', 'my server'])).toEqual({ configDirFlag: '/c d', server: 'my server', rootsPolicy: 'host' });
    expect(proxyCommandLine(['proxy', 'fs', '--roots-policy=registry'])).toEqual({ configDirFlag: undefined, server: 'fs', rootsPolicy: 'registry' });
    // What "use with" writes into a host's config (proxy-launcher.ts): the option after `proxy`.
    expect(proxyCommandLine(['proxy', '--config-dir', '/c', 'fs'])).toEqual({ configDirFlag: '/c', server: 'fs', rootsPolicy: 'registry' });
    expect(proxyCommandLine(['proxy', 'fs', '--config-dir=/c d', '--roots-policy', 'host'])).toEqual({ configDirFlag: '/c d', server: 'fs', rootsPolicy: 'host' });
  });

  it('leaves every other line to the command table (its help, its messages, its exit codes)', () => {
    for (const argv of [
      [],
      ['status'],
      ['grant', 'proxy', 'x'],
      ['proxy'],
      ['proxy', '--help'],
      ['proxy', '-h', 'fs'],
      ['proxy', 'a', 'b'],
      ['proxy', '--roots-policy', 'everyone', 'fs'],
      ['proxy', 'fs', '--roots-policy'],
      ['proxy', '--', 'fs'],
      ['proxy', '-fs'],
      ['--config-dir'],
      ['--config-dir', '/c', '--config-dir', '/d', 'proxy', 'fs'],
      ['proxy', 'fs', '--config-dir'],
      ['--config-dir', '/c', 'proxy', '--config-dir', '/d', 'fs'],
      ['proxy', '--config-dir', '/c', '--config-dir=/d', 'fs'],
      ['--verbose', 'proxy', 'fs'],
    ]) {
      expect(proxyCommandLine(argv), argv.join(' ')).toBeUndefined();
    }
  });

  it('takes every line "use with" writes into a host’s config', () => {
    for (const configDir of [undefined, '/home/me/.config/mcp roots']) {
      const { args } = proxyCommand(pathLauncher(), 'my server', configDir);
      expect(proxyCommandLine(args), args.join(' ')).toEqual({ configDirFlag: configDir, server: 'my server', rootsPolicy: 'registry' });
    }
  });
});
