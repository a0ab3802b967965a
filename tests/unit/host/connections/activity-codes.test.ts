// Every message the host writes to the activity log has a code the UI can word in its language.
import { drainCutText, drainText } from '../../../../electron/host/connections/drain-wait.js';
import { limitHitText } from '../../../../electron/host/sandbox/limit-watch.js';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATIC_PROTECTION } from '../../../../electron/host/sandbox/self-check.js';
import { activityCode } from '../../../../electron/host/connections/activity-codes.js';
import { ActivityLog } from '../../../../electron/host/connections/activity-log.js';
import { describeLiveChange } from '../../../../electron/host/connections/live-grants.js';
import { describeConfigChange, liveRestartReason, RESTART_REASONS } from '../../../../electron/host/connections/roots-change-policy.js';
import { REREADS_NOTE } from '../../../../electron/host/connections/roots-session.js';
import type { ServerRecord } from '../../../../shared/domain.js';

const hostDir = path.resolve(import.meta.dirname, '../../../../electron/host');

describe('activityCode', () => {
  it('codes every literal message the host passes to addActivity', () => {
    const literals = new Set<string>();
    // Every room of the host, not only its top folder: a message moved into a room stays covered.
    for (const file of fs.readdirSync(hostDir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
      const source = fs.readFileSync(path.join(hostDir, file), 'utf8');
      for (const match of source.matchAll(/addActivity\(\s*'[\w-]+',\s*'((?:[^'\\]|\\.)*)'/g)) literals.add(match[1]!.replace(/\\'/g, "'"));
    }
    expect(literals.size).toBeGreaterThan(4);
    for (const literal of literals) expect({ literal, coded: activityCode(literal) !== undefined }).toEqual({ literal, coded: true });
  });

  it('codes a change applied live and the restart a live change needed instead, with their facts', () => {
    const check = { verified: true, at: 0, detail: 'pid 9: 2 sentinel(s) …' };
    expect(activityCode(describeLiveChange({ kind: 'applied', check, added: ['/a', '/b'], revoked: [], ms: 23.4 }))).toEqual({
      code: 'live-applied',
      params: { ms: 23, mounted: '/a, /b', unmounted: '-' },
    });
    expect(activityCode(liveRestartReason('it held /p/f.txt open under /p'))).toEqual({ code: 'restart-live', params: { reason: 'it held /p/f.txt open under /p' } });
  });

  it('codes the restart reasons and every config change', () => {
    for (const reason of Object.values(RESTART_REASONS)) expect(activityCode(reason)?.code).toMatch(/^restart-/);
    const base = { id: 's', name: 's', transport: { type: 'stdio', command: 'x', args: [], env: {} }, enabled: true, sharing: true, sandbox: true, network: true, askForFolders: true, addedAt: '' } as ServerRecord;
    const flips: Partial<ServerRecord>[] = [{ enabled: false }, { sharing: false }, { sandbox: false }, { network: false }, { name: 'other' }];
    for (const flip of flips) {
      for (const [before, after] of [[base, { ...base, ...flip }], [{ ...base, ...flip }, base]] as const) {
        expect(activityCode(describeConfigChange(before, after))?.code).toMatch(/^config-/);
      }
    }
  });

  it('carries the numbers and names a message holds', () => {
    expect(activityCode('Asked for roots; answered 3.')).toEqual({ code: 'roots-answered', params: { count: 3 } });
    expect(activityCode('Connected (protocol 2025-11-25, secure-filesystem-server 0.2.0).')).toEqual({
      code: 'connected',
      params: { protocol: '2025-11-25', server: 'secure-filesystem-server 0.2.0' },
    });
    expect(activityCode('Started with 2 folder(s) as arguments.')).toEqual({ code: 'started-with-folders', params: { count: 2 } });
    expect(activityCode('list_changed failed: Not connected')).toEqual({ code: 'list-changed-failed', params: { detail: 'Not connected' } });
    expect(activityCode(`${REREADS_NOTE} (It did not ask again within 500 ms of being told they changed.)`)).toEqual({ code: 'no-reask', params: { windowMs: 500 } });
    expect(activityCode('It answered the 2026-07-28 probe after 3120 ms (a slow start, not an error).')).toEqual({ code: 'slow-probe-answer', params: { afterMs: 3120 } });
    expect(activityCode('Received a response for an unknown message ID')).toBeUndefined();
  });

  // Issue 23 item 15: these were shown in English in German and Chinese.
  it('codes the sandbox’s and the read limits’ messages', () => {
    const verified =
      "Sandbox verified: pid 4242: 3 sentinel(s) and 5 file(s) of HOME outside the grants not visible; 2 root(s) mounted with their grant's mode, each the folder that was checked; " +
      '7 protected path(s) read-only; 3 folder(s) above the data folder and protected paths pinned; /proc/sys read-only; data 8 GiB per process; tasks 1218 for this user; ' +
      'seccomp filter on (keyrings, mount calls, Unix sockets refused)';
    expect(activityCode(verified)).toEqual({ code: 'sandbox-verified', params: { pid: '4242', count: 2, protected: 7, sockets: 'refused', static: 'no' } });
    // A network-on server in a network of its own (pasta): Unix sockets are allowed there. The final CI of session 6
    // showed this entry in English on a German page, since only the refused wording had a code.
    const ownNetwork = verified.replace(
      'seccomp filter on (keyrings, mount calls, Unix sockets refused)',
      "seccomp filter on (keyrings, mount calls); network on through pasta: a network namespace of its own (checked), so the host's abstract Unix sockets (X11, D-Bus) are unreachable and Unix sockets are allowed",
    );
    expect(activityCode(ownNetwork)).toEqual({ code: 'sandbox-verified', params: { pid: '4242', count: 2, protected: 7, sockets: 'own-network', static: 'no' } });
    // With every limit the self-check now reads (a cgroup's tasks, files, /tmp, HOME not capped).
    const withLimits = verified.replace(
      'data 8 GiB per process; tasks 1218 for this user',
      'tasks 64 (its own cgroup v1); memory 256 MiB per process; memory 256 MiB for the whole server (cgroup); open files 256 per process; /tmp and TMPDIR 32 MiB (tmpfs); private HOME on disk NOT capped (no per-folder quota without privileges)',
    );
    expect(activityCode(withLimits)).toEqual({ code: 'sandbox-verified', params: { pid: '4242', count: 2, protected: 7, sockets: 'refused', static: 'no' } });
    // Bind mounts say their protection is static; the code carries it, so no language drops it.
    expect(activityCode(`${verified}; ${STATIC_PROTECTION}`)).toEqual({ code: 'sandbox-verified', params: { pid: '4242', count: 2, protected: 7, sockets: 'refused', static: 'yes' } });
    // Its own file view: the grants through it, the protected names refused at any depth.
    const viewed =
      'Sandbox verified: pid 4242: 2 sentinel(s) and 0 file(s) of HOME outside the grants not visible; 3 grant(s) through its file view, each the folder that was checked (1 read-only: a new file refused; 2 read-write: writable, a protected name refused); ' +
      'protected names refused at any depth and whenever they appear, nothing placed in your folders (writable by your choice: /p/.vscode); /proc/sys read-only; tasks 1039 for this user; seccomp filter on (keyrings, mount calls); ' +
      "network on through pasta: a network namespace of its own (checked), so the host's abstract Unix sockets (X11, D-Bus) are unreachable and Unix sockets are allowed; grants applied live (a new table of its file view)";
    expect(activityCode(viewed)).toEqual({ code: 'sandbox-verified-view', params: { pid: '4242', count: 3, sockets: 'own-network' } });
    expect(activityCode(viewed.replace('seccomp filter on (keyrings, mount calls)', 'seccomp filter on (keyrings, mount calls, Unix sockets refused)'))).toMatchObject({ params: { sockets: 'refused' } });
    // Without the filter (an architecture it does not cover) the entry says so in the host's words, never "verified" in a translation that claims it.
    expect(activityCode(verified.replace(/seccomp filter on.*$/, 'no seccomp filter on this architecture'))).toBeUndefined();
    expect(activityCode('Stopped: its sandbox could not be verified (pid 7: /data is visible). It was not run unconfined. Reconnect to try again; if it fails again, something on this computer is keeping the sandbox from holding.')).toEqual({
      code: 'sandbox-unverified',
      params: { detail: 'pid 7: /data is visible' },
    });
    const limits = { prlimit: '/usr/bin/prlimit', taskLimit: 64, dataBytes: 256 * 1024 ** 2, tmpBytes: 32 * 1024 ** 2, files: 256 };
    expect(activityCode(limitHitText('tasks', limits))).toEqual({ code: 'limit-tasks', params: { count: 64 } });
    expect(activityCode(limitHitText('memory', limits))).toEqual({ code: 'limit-memory', params: { mib: 256 } });
    expect(activityCode(limitHitText('tmp', limits))).toEqual({ code: 'limit-tmp', params: { mib: 32 } });
    expect(activityCode(limitHitText('files', limits))).toEqual({ code: 'limit-files', params: { count: 256 } });
    expect(activityCode('Its sandbox limits changed.')).toEqual({ code: 'config-limits' });
    expect(activityCode('The sandbox kept it from /home/me/notes (granted read-only).')).toEqual({ code: 'sandbox-blocked-read-only', params: { path: '/home/me/notes' } });
    expect(activityCode('The sandbox kept it from /home/me/.ssh (not granted).')).toEqual({ code: 'sandbox-blocked', params: { path: '/home/me/.ssh' } });
    expect(activityCode('It sent more than 200 messages a second: they are read at that pace, and the rest waits.')).toEqual({ code: 'read-paced', params: { rate: 200 } });
    expect(activityCode('It sent more than 200 messages a second for 1 s: it is not read at all for 2 s (pause 2 of 4); its requests are answered after that.')).toEqual({
      code: 'read-paused',
      params: { rate: 200, seconds: 1, pauseSeconds: 2, pause: 2, count: 4 },
    });
    expect(activityCode('It kept sending more than 200 messages a second after 4 pauses: its session was closed, and it is started again after a longer pause.')).toEqual({
      code: 'flood-closed',
      params: { rate: 200, count: 4 },
    });
    expect(activityCode('It wrote a line longer than 4 MB without a newline: the session was closed, and it is started again after a pause.')).toEqual({ code: 'long-line', params: { mb: 4 } });
    expect(activityCode(drainText(1, 30_000))).toEqual({ code: 'drain-waiting', params: { count: 1, seconds: 30 } });
    expect(activityCode(drainText(3, 30_000))).toEqual({ code: 'drain-waiting', params: { count: 3, seconds: 30 } });
    expect(activityCode(`Ended 2 running call(s) with an error: ${drainCutText('fs', 'Sandbox turned on.', 30_000)}`)).toEqual({ code: 'drain-cut', params: { count: 2, seconds: 30 } });
  });

  it('is applied where entries are born, never to a server’s own output', () => {
    const log = new ActivityLog();
    expect(log.add('restart', 'Disabled.').code).toBe('config-disabled');
    expect(log.add('stderr', 'Disabled.').code).toBeUndefined();
    const failure = { code: 'exited' as const, message: 'exited with code 1', exitCode: 1 };
    const entry = log.add('error', 'exited with code 1', undefined, { failure });
    expect(entry.failure).toEqual(failure);
    expect(entry.code).toBeUndefined();
  });
});
