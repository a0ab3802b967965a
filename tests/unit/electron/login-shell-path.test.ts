// The login shell's PATH, asked once at start: real shell processes (a fixture that behaves like a
// login shell with noisy rc files), never a mocked spawn.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergePaths, resolveShellPath, shellArguments } from '../../../electron/main/login-shell-path.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

const FAKE_SHELL = path.resolve(import.meta.dirname, '../../fixtures/fake-login-shell.sh');

afterEach(() => removeTempDirs());

describe('the PATH servers start with', () => {
  it('puts the login shell PATH first and keeps what only the app had, once each', () => {
    expect(mergePaths('/opt/homebrew/bin:/usr/bin', '/usr/bin:/bin:/usr/bin:', ':')).toBe('/opt/homebrew/bin:/usr/bin:/bin');
    expect(mergePaths('', '/usr/bin:/bin', ':')).toBe('/usr/bin:/bin');
  });

  it('asks an interactive login shell (csh and tcsh take -ic)', () => {
    expect(shellArguments('/bin/zsh', 'x')).toEqual(['-i', '-l', '-c', 'x']);
    expect(shellArguments('/usr/bin/fish', 'x')).toEqual(['-i', '-l', '-c', 'x']);
    expect(shellArguments('/bin/tcsh', 'x')).toEqual(['-ic', 'x']);
  });

  it("reads the shell's PATH between its own marks, whatever the rc files print around it", async () => {
    const bin = tempDir('nvm-bin-');
    const result = await resolveShellPath({
      ask: true,
      platform: 'linux',
      env: { SHELL: FAKE_SHELL, FAKE_SHELL_BIN: bin, PATH: '/usr/bin:/bin' },
    });
    expect(result).toMatchObject({ source: 'login-shell', shell: FAKE_SHELL });
    expect(result.error).toBeUndefined();
    expect(result.path.split(':')[0]).toBe(bin);
    expect(result.path.split(':')).toEqual(expect.arrayContaining(['/usr/bin', '/bin']));
    expect(result.path).not.toContain('noise');
  });

  it('keeps the inherited PATH and says why when the shell hangs past the timeout', async () => {
    const started = Date.now();
    const result = await resolveShellPath({
      ask: true,
      platform: 'linux',
      timeoutMs: 300,
      env: { SHELL: FAKE_SHELL, FAKE_SHELL_BIN: '/nowhere', FAKE_SHELL_SLEEP: '30', PATH: '/usr/bin:/bin' },
    });
    expect(result).toMatchObject({ source: 'inherited', path: '/usr/bin:/bin' });
    expect(result.error).toMatch(/did not answer within 300 ms/);
    // Bounded by the timeout, not by the shell's 30 s sleep.
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('keeps the inherited PATH when the shell cannot run or prints nothing', async () => {
    const missing = await resolveShellPath({ ask: true, platform: 'linux', env: { SHELL: '/no/such/shell', PATH: '/usr/bin' } });
    expect(missing).toMatchObject({ source: 'inherited', path: '/usr/bin' });
    expect(missing.error).toBeDefined();
    const silent = path.join(tempDir('silent-shell-'), 'sh');
    fs.writeFileSync(silent, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    const nothing = await resolveShellPath({ ask: true, platform: 'linux', env: { SHELL: silent, PATH: '/usr/bin' } });
    expect(nothing).toMatchObject({ source: 'inherited', path: '/usr/bin' });
    expect(nothing.error).toMatch(/printed no PATH \(exit code 3\)/);
  });

  it('does not ask on Windows, nor when told not to (started from a terminal)', async () => {
    const env = { SHELL: '/no/such/shell', PATH: 'C:\\Windows' };
    expect(await resolveShellPath({ ask: true, platform: 'win32', env })).toEqual({ source: 'inherited', path: 'C:\\Windows' });
    expect(await resolveShellPath({ ask: false, platform: 'darwin', env })).toEqual({ source: 'inherited', path: 'C:\\Windows' });
  });
});
