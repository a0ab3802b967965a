import { describe, expect, it } from 'vitest';
import { proxyCommandLine } from '../../../electron/cli/proxy-command-line.js';

describe('proxyCommandLine', () => {
  it('takes the lines hosts launch', () => {
    expect(proxyCommandLine(['proxy', 'fs'])).toEqual({ configDirFlag: undefined, server: 'fs', rootsPolicy: 'registry' });
    expect(proxyCommandLine(['--config-dir', '/c', 'proxy', 'fs'])).toEqual({ configDirFlag: '/c', server: 'fs', rootsPolicy: 'registry' });
    expect(proxyCommandLine(['--config-dir=/c d', 'proxy', '--roots-policy', 'host', 'my server'])).toEqual({ configDirFlag: '/c d', server: 'my server', rootsPolicy: 'host' });
    expect(proxyCommandLine(['proxy', 'fs', '--roots-policy=registry'])).toEqual({ configDirFlag: undefined, server: 'fs', rootsPolicy: 'registry' });
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
      ['proxy', '--config-dir', '/c', 'fs'],
      ['--verbose', 'proxy', 'fs'],
    ]) {
      expect(proxyCommandLine(argv), argv.join(' ')).toBeUndefined();
    }
  });
});
