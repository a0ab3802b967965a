// The self-check against real processes is in tests/integration/sandbox-confinement.test.ts; here,
// its reading of mountinfo and of the process tree.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { confinedProcesses, parseMountinfo } from '../../../../electron/host/sandbox/self-check.js';

describe('parseMountinfo', () => {
  it('reads mount points (octal escapes decoded) and their options; a later mount on one point wins', () => {
    const text = [
      '600 599 0:60 / / ro,nosuid,nodev,relatime - tmpfs tmpfs rw',
      '601 600 254:1 /home/me/My\\040Notes /home/me/My\\040Notes rw,relatime - ext4 /dev/vda1 rw',
      '602 600 254:1 /srv /srv rw,relatime - ext4 /dev/vda1 rw',
      '603 600 254:1 /srv /srv ro,relatime - ext4 /dev/vda1 rw',
    ].join('\n');
    const mounts = parseMountinfo(text);
    expect(mounts.get('/home/me/My Notes')).toContain('rw');
    expect(mounts.get('/srv')).toContain('ro');
    expect(mounts.get('/')).toContain('ro');
  });
});

describe('confinedProcesses', () => {
  it('finds nothing below a process in our own mount namespace', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      expect(confinedProcesses(child.pid as number)).toEqual([]);
    } finally {
      child.kill();
    }
  });
});
