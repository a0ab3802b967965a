// The probe runs the real bwrap: as root, as an unprivileged user, inside a sandbox that forbids
// user namespaces (what Ubuntu 24.04's AppArmor or a container does), and with bwrap missing.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { classifyBwrapFailure, findOnPath, probeSandbox } from '../../../../electron/host/sandbox/sandbox-probe.js';

const run = promisify(execFile);
const bwrap = findOnPath('bwrap', process.env.PATH);
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const asRoot = process.getuid?.() === 0;
// A tiny program that prints the probe's answer, run in a child process as someone else.
const probeScript = `import('${path.join(repoRoot, 'electron/host/sandbox/sandbox-probe.ts')}').then(async (m) => console.log(JSON.stringify(await m.probeSandbox())))`;

async function probeInChild(prefix: string[]): Promise<{ kind: string; reasonCode: string; reason: string }> {
  const [command, ...args] = [...prefix, process.execPath, '--import', 'tsx', '--input-type=module', '-e', probeScript];
  const { stdout } = await run(command as string, args, { cwd: repoRoot, env: { ...process.env, HOME: '/tmp' } });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string);
}

describe('probeSandbox', () => {
  it('says advisory with bwrap-missing when bwrap is not on PATH', async () => {
    expect(await probeSandbox({ platform: 'linux', pathEnv: '/nonexistent' })).toMatchObject({ kind: 'none', reasonCode: 'bwrap-missing' });
  });

  it('says advisory on Windows and other platforms, and names the platform', async () => {
    const windows = await probeSandbox({ platform: 'win32' });
    expect(windows).toMatchObject({ kind: 'none', reasonCode: 'platform-unsupported' });
    expect(windows.reason).toContain('Windows');
    expect(await probeSandbox({ platform: 'freebsd' })).toMatchObject({ kind: 'none', reasonCode: 'platform-unsupported' });
  });

  it.runIf(bwrap)('confines with bwrap where a trial run works', async () => {
    expect(await probeSandbox()).toMatchObject({ kind: 'bwrap', reasonCode: 'ok', launcher: bwrap });
  });

  it.runIf(bwrap && asRoot)('works for an unprivileged user too (setpriv to nobody)', async () => {
    const answer = await probeInChild(['setpriv', '--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups']);
    expect(answer).toMatchObject({ kind: 'bwrap', reasonCode: 'ok' });
  }, 60_000);

  it.runIf(bwrap)('says userns-blocked where user namespaces are refused', async () => {
    // An outer sandbox with --disable-userns: inside it the kernel refuses new user namespaces.
    const outer = [bwrap as string, '--unshare-user', '--disable-userns', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--'];
    const answer = await probeInChild(outer);
    expect(answer).toMatchObject({ kind: 'none', reasonCode: 'userns-blocked' });
    expect(answer.reason).toMatch(/user namespace/);
  }, 60_000);
});

describe('classifyBwrapFailure', () => {
  it.each([
    'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.',
    'bwrap: setting up uid map: Permission denied',
    'bwrap: Creating new namespace failed: Operation not permitted',
  ])('%s → userns-blocked', (stderr) => {
    expect(classifyBwrapFailure(stderr).reasonCode).toBe('userns-blocked');
  });

  it('anything else is bwrap-failed with its message', () => {
    const failure = classifyBwrapFailure('bwrap: Can\'t mount proc on /newroot/proc: Device or resource busy');
    expect(failure).toMatchObject({ reasonCode: 'bwrap-failed' });
    expect(failure.reason).toContain("Can't mount proc");
  });
});
