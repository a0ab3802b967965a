import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appHostClaimFile, appHostHolder, claimAppHost } from '../../../../electron/host/status/app-host-claim.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  removeTempDirs();
});

/** A live process other than this one, to stand for another app or serve. */
function otherLiveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid as number;
}

describe('claimAppHost', () => {
  it('the first claims the registry; a second is told who holds it and where, until the first lets go', () => {
    const configDir = tempDir('claim-');
    const other = otherLiveProcess();
    const first = claimAppHost(configDir, 'serve', other);
    if (!first.ok) throw new Error('not claimed');
    first.claim.setUrl('http://127.0.0.1:8765');
    const second = claimAppHost(configDir, 'app');
    expect(second).toEqual({ ok: false, holder: expect.objectContaining({ pid: other, kind: 'serve', url: 'http://127.0.0.1:8765' }) });
    expect(appHostHolder(configDir)?.pid).toBe(other);
    first.claim.release();
    expect(claimAppHost(configDir, 'app').ok).toBe(true);
  });

  it("takes over a dead holder's claim, and a damaged one", () => {
    const configDir = tempDir('claim-');
    const file = appHostClaimFile(configDir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // A pid above Linux's pid_max (2^22): no such process.
    fs.writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 1, kind: 'app', startedAt: 0 }));
    expect(claimAppHost(configDir, 'serve').ok).toBe(true);
    fs.writeFileSync(file, '{"pid":');
    expect(claimAppHost(configDir, 'serve').ok).toBe(true);
  });

  it("releasing someone else's claim leaves it in place", () => {
    const configDir = tempDir('claim-');
    const mine = claimAppHost(configDir, 'serve');
    if (!mine.ok) throw new Error('not claimed');
    fs.writeFileSync(appHostClaimFile(configDir), JSON.stringify({ pid: otherLiveProcess(), kind: 'app', startedAt: 0 }));
    mine.claim.release();
    expect(claimAppHost(configDir, 'serve').ok).toBe(false);
  });
});
