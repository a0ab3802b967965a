// The activity log says what changed and who changed it: each grant, revoke and mode change names
// its folders (home as ~) and modes, and whether this app, the CLI or another process made it; a
// setting changed by the CLI says so instead of "changed outside the app". A real host, the real
// CLI command, and server-filesystem, which must see each change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/domain.js';
import { runMain } from '../support/cli-in-process.js';
import { addConnectedServer, addRoot, callText, editRegistry, startHost, stopHosts } from '../support/host-harness.js';
import { allowedDirectories, filesystemServer, removeTempDirs, waitFor } from '../support/index.js';

// Below the home folder, so the log can show them as ~/…
const homeFolders: string[] = [];
function homeFolder(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), '.mcp-roots-activity-')));
  homeFolders.push(dir);
  return dir;
}

afterEach(async () => {
  await stopHosts();
  for (const dir of homeFolders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  removeTempDirs();
});

const tilde = (dir: string) => `~/${path.relative(os.homedir(), dir)}`;

describe('grant activity', () => {
  it('names the folders, their modes and the source of every grant, revoke and mode change', async () => {
    const host = await startHost();
    const [a, b] = [homeFolder(), homeFolder()];
    const rootA = await addRoot(host, a);
    await addRoot(host, b);
    const serverId = await addConnectedServer(host, 'filesystem', filesystemServer());
    const cli = (...args: string[]) => runMain(['--config-dir', host.configDir, ...args]);
    const grantEntries = () => host.activity(serverId).filter((entry) => entry.kind === 'grants');
    const nextGrantEntry = async (after: number): Promise<ActivityEntry> => {
      await waitFor(() => grantEntries().length > after, { what: `grants entry ${after + 1}`, timeoutMs: 10_000 });
      return grantEntries()[after] as ActivityEntry;
    };
    const sees = async () => allowedDirectories(await callText(host, serverId, 'list_allowed_directories'));

    // This app grants a, read-write.
    await host.setGrants([serverId], [rootA], true, 'read-write');
    const byApp = await nextGrantEntry(0);
    expect(byApp).toMatchObject({
      code: 'grants-changed',
      source: 'this-app',
      grants: { granted: [{ path: a, shown: tilde(a), mode: 'read-write' }], revoked: [], modeChanged: [] },
      message: `Granted ${tilde(a)} (read-write), from this app.`,
    });
    await waitFor(async () => (await sees()).includes(a), { what: 'the server to see a', timeoutMs: 15_000 });

    // The CLI grants b read-only.
    expect((await cli('grant', '--read-only', 'filesystem', b)).code).toBe(0);
    const byCli = await nextGrantEntry(1);
    expect(byCli).toMatchObject({ source: 'cli', grants: { granted: [{ path: b, shown: tilde(b), mode: 'read-only' }] } });
    expect(byCli.message).toBe(`Granted ${tilde(b)} (read-only), from the CLI.`);
    await waitFor(async () => (await sees()).includes(b), { what: 'the server to see b', timeoutMs: 15_000 });
    // The entry comes before what the change did to the server (its restart or notification).
    const log = host.activity(serverId);
    const after = log.slice(log.indexOf(byCli) + 1);
    expect(after.some((entry) => entry.kind === 'list-changed' || entry.kind === 'restart' || entry.kind === 'roots-request')).toBe(true);

    // The CLI makes b read-write: a mode change.
    expect((await cli('grant', '--read-write', 'filesystem', b)).code).toBe(0);
    const modeChange = await nextGrantEntry(2);
    expect(modeChange).toMatchObject({ source: 'cli', grants: { granted: [], revoked: [], modeChanged: [{ path: b, mode: 'read-write' }] } });
    expect(modeChange.message).toBe(`Changed the mode of ${tilde(b)} (read-write), from the CLI.`);

    // Another process (an editor that does not say who it is) revokes a.
    await editRegistry(host.configDir, (editor) => editor.setGrants([serverId], [rootA], false));
    const byOther = await nextGrantEntry(3);
    expect(byOther).toMatchObject({ source: 'other', grants: { revoked: [{ path: a, shown: tilde(a), mode: 'read-write' }] } });
    expect(byOther.message).toBe(`Revoked ${tilde(a)} (read-write), from another process.`);
    await waitFor(async () => !(await sees()).includes(a), { what: 'the server to lose a', timeoutMs: 15_000 });
  });

  it('a setting the CLI changed says what and who, not "changed outside the app"', async () => {
    const host = await startHost();
    const serverId = await addConnectedServer(host, 'filesystem', filesystemServer());
    expect((await runMain(['--config-dir', host.configDir, 'servers', 'set', 'filesystem', '--sharing', 'off'])).code).toBe(0);
    await waitFor(() => host.activity(serverId).some((entry) => entry.code === 'config-sharing-off'), { what: 'the sharing-off entry', timeoutMs: 10_000 });
    const entry = host.activity(serverId).find((candidate) => candidate.code === 'config-sharing-off');
    expect(entry).toMatchObject({ kind: 'restart', source: 'cli', code: 'config-sharing-off', message: 'Folder sharing turned off, from the CLI.' });
  });
});
