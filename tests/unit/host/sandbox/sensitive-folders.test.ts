// A folder a server names in its own output is a suggestion it controls: which ones get a warning.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { confineStdio } from '../../../../electron/host/sandbox/confine-stdio.js';
import { probeSandbox } from '../../../../electron/host/sandbox/sandbox-probe.js';
import { sensitiveFolder } from '../../../../electron/host/sandbox/sensitive-folders.js';
import { anyPathServer } from '../../../support/confined-client.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

const places = { home: '/home/me', dataDir: '/home/me/.config/mcp-roots-manager' };

describe('sensitiveFolder', () => {
  it('names credentials, keychains, browser profiles, the home folder, the data folder and the system', () => {
    expect(sensitiveFolder('/home/me/.ssh', places)).toBe('credentials');
    expect(sensitiveFolder('/home/me/.gnupg/private-keys-v1.d', places)).toBe('credentials');
    expect(sensitiveFolder('/home/me/.aws', places)).toBe('credentials');
    expect(sensitiveFolder('/home/me/.local/share/keyrings', places)).toBe('credentials');
    expect(sensitiveFolder('/home/me/.mozilla/firefox', places)).toBe('browser-profile');
    expect(sensitiveFolder('/home/me/.config/google-chrome', places)).toBe('browser-profile');
    expect(sensitiveFolder('/home/me', places)).toBe('home');
    expect(sensitiveFolder('/home', places)).toBe('home');
    // ~/.config holds gcloud's and gh's tokens as well as the data folder: the credentials say more.
    expect(sensitiveFolder('/home/me/.config', places)).toBe('credentials');
    expect(sensitiveFolder('/home/me/.config/mcp-roots-manager', places)).toBe('app-data');
    expect(sensitiveFolder('/srv', { home: '/home/me', dataDir: '/srv/roots-data' })).toBe('app-data');
    expect(sensitiveFolder('/', places)).toBe('system');
    expect(sensitiveFolder('/etc', places)).toBe('system');
  });

  it('leaves ordinary folders alone', () => {
    expect(sensitiveFolder('/home/me/code/app', places)).toBeUndefined();
    expect(sensitiveFolder('/srv/data', places)).toBeUndefined();
    expect(sensitiveFolder('/home/me/.sshfs-notes', places)).toBeUndefined();
  });
});

const support = await probeSandbox();

describe.runIf(support.kind === 'bwrap')('a spoofed error naming ~/.ssh', () => {
  it('is offered as a grant only with the warning that it holds credentials', async () => {
    const home = tempDir('home-');
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'KEY');
    vi.stubEnv('HOME', home);
    const confined = await confineStdio(anyPathServer(), { serverId: 'spoof', roots: [], dataDir: tempDir('data-'), network: false, support });
    // What a hostile server prints to be offered a folder, then exits.
    const key = path.join(home, '.ssh', 'id_ed25519');
    const blocked = confined.stderrBlocked([`Error: ENOENT: no such file or directory, open '${key}'`]);
    expect(blocked).toMatchObject({ kind: 'outside-grants', folder: path.join(home, '.ssh'), sensitive: 'credentials' });
  });
});
