// A full disk, for real: a 256 KiB tmpfs in a private mount namespace (unprivileged user
// namespaces, no root needed), filled to the last byte. Reading the registry must still work
// everywhere (the app, a proxy, `mcp-roots roots list`), an edit must fail with a clear error and
// change nothing, the last good copy must survive, and no temp or lock file may be left behind.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');

async function userNamespacesWork(): Promise<string | undefined> {
  try {
    await run('unshare', ['-rm', 'true']);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const blocked = await userNamespacesWork();

describe('a full disk', () => {
  it.skipIf(blocked !== undefined)(`reads work, an edit fails cleanly, nothing is lost or left behind${blocked ? ` (skipped: unshare -rm fails here: ${blocked})` : ''}`, async () => {
    const dir = '/mnt';
    const script = [
      `mount -t tmpfs -o size=256k tmpfs ${dir}`,
      `exec "${process.execPath}" --import tsx "${path.join(repoRoot, 'tests/fixtures/full-disk-check.ts')}" ${dir}`,
    ].join(' && ');
    const { stdout } = await run('unshare', ['-rm', 'sh', '-c', script], { cwd: repoRoot, timeout: 60_000 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
    expect(result).toMatchObject({
      openRoots: 20,
      lastGoodRoots: 20,
      edit: 'store-failed',
      rootsAfterFailedEdit: 20,
      followerRoots: 20,
      cliRoots: 20,
      leftovers: [],
    });
    expect(result.editMessage).toMatch(/ENOSPC|no space/i);
  }, 90_000);
});
