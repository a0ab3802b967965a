// "Install command line tool": the script it writes is run here as a person's shell would run it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandLineBinDirs, installCommandLine } from '../../../electron/cli/command-line-install.js';
import type { ProxyLauncher } from '../../../electron/import/proxy-launcher.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

afterEach(removeTempDirs);

/** A stand-in for bin/mcp-roots.js that says what it was given, in a folder with a space and a quote. */
function echoLauncher(): ProxyLauncher {
  const script = path.join(tempDir("it's here "), 'echo-args.mjs');
  fs.writeFileSync(script, 'console.log(JSON.stringify({ args: process.argv.slice(2), flag: process.env.FLAG ?? null }));\n');
  return { kind: 'node', node: process.execPath, script, env: { FLAG: 'on' } };
}

describe('installCommandLine', () => {
  it('writes an mcp-roots that runs this installation with the arguments given, and --help with none', async () => {
    const bin = tempDir('bin-');
    const outcome = await installCommandLine({ launcher: echoLauncher(), binDirs: [bin], platform: 'linux', env: { PATH: `/usr/bin:${bin}` } });
    expect(outcome).toEqual({ ok: true, path: path.join(bin, 'mcp-roots'), replaced: false, onPath: true });
    const run = (...args: string[]) => JSON.parse(execFileSync(path.join(bin, 'mcp-roots'), args, { encoding: 'utf8' })) as unknown;
    expect(run('grant', 'fs', 'My Notes')).toEqual({ args: ['grant', 'fs', 'My Notes'], flag: 'on' });
    expect(run()).toEqual({ args: ['--help'], flag: 'on' });
    // Found on PATH by name, as a person types it.
    expect(execFileSync('sh', ['-c', 'mcp-roots status'], { encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin` } })).toContain('"status"');
  });

  it('says when its folder is not on PATH; replaces its own script, never someone else\'s', async () => {
    const bin = tempDir('bin-');
    const first = await installCommandLine({ launcher: echoLauncher(), binDirs: [bin], platform: 'linux', env: { PATH: '/usr/bin' } });
    expect(first).toMatchObject({ ok: true, onPath: false });
    expect(await installCommandLine({ launcher: echoLauncher(), binDirs: [bin], platform: 'linux', env: {} })).toMatchObject({ ok: true, replaced: true });

    const other = tempDir('bin-');
    fs.symlinkSync('/usr/bin/true', path.join(other, 'mcp-roots'));
    expect(await installCommandLine({ launcher: echoLauncher(), binDirs: [other], platform: 'linux', env: {} })).toMatchObject({ ok: false, reason: 'not-ours' });
    expect(fs.readlinkSync(path.join(other, 'mcp-roots'))).toBe('/usr/bin/true');
  });

  it('installs nothing on Windows; looks in ~/.local/bin on Linux and /usr/local/bin first on macOS', async () => {
    expect(await installCommandLine({ platform: 'win32', launcher: echoLauncher() })).toMatchObject({ ok: false, reason: 'unsupported' });
    expect(commandLineBinDirs('linux', '/home/me')).toEqual(['/home/me/.local/bin']);
    expect(commandLineBinDirs('darwin', '/Users/me')).toEqual(['/usr/local/bin', '/Users/me/.local/bin']);
  });
});
