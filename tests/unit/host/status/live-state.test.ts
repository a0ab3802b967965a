// What `mcp-roots status` believes about servers it does not run: the app or serve that wrote last,
// "disabled" from the registry, "unknown" when no live process reports; files of dead processes go.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Registry, ServerStatus } from '../../../../shared/domain.js';
import { appStatusFile, readAppStatus, type AppStatus } from '../../../../electron/host/status/app-status.js';
import { liveAppsOf, liveStateOf } from '../../../../electron/host/status/live-state.js';
import { StatusFileWriter } from '../../../../electron/host/status/status-file.js';
import { removeTempDirs, tempDir, waitFor } from '../../../support/index.js';

afterEach(() => removeTempDirs());

const status = (state: ServerStatus['state']): ServerStatus => ({ state, rootsRequestCount: 0, listChangedCount: 0 });
const app = (pid: number, kind: 'app' | 'serve', updatedAt: number, servers: Record<string, ServerStatus>): AppStatus => ({ pid, kind, startedAt: 0, updatedAt, servers });
const registry = { servers: [{ id: 'on', enabled: true }, { id: 'off', enabled: false }, { id: 'quiet', enabled: true }] } as unknown as Registry;

describe('live server state', () => {
  it('takes each server from the app that wrote last, lets the registry say disabled, and says unknown otherwise', () => {
    // Sorted most recent first, as readAppStatus returns them.
    const live = liveAppsOf([app(2, 'serve', 2000, { on: status('connected') }), app(1, 'app', 1000, { on: status('error'), off: status('connected') })]);
    expect(liveStateOf(live, registry, 'on')).toBe('connected');
    expect(live.servers.get('on')?.by).toEqual({ pid: 2, kind: 'serve' });
    expect(liveStateOf(live, registry, 'off')).toBe('disabled');
    expect(liveStateOf(live, registry, 'quiet')).toBe('unknown');
    expect(liveStateOf(liveAppsOf([]), registry, 'on')).toBe('unknown');
  });

  it('reads the live writer, drops a dead process\'s file, and the writer removes its own on stop', async () => {
    const configDir = tempDir('live-state-');
    const writer = new StatusFileWriter<AppStatus>(appStatusFile(configDir, 'app', process.pid), app(process.pid, 'app', Date.now(), {}), {
      minIntervalMs: 50,
      refresh: () => ({ servers: { on: status('connected') } }),
    });
    const dead = appStatusFile(configDir, 'serve', 999_999);
    fs.writeFileSync(dead, JSON.stringify(app(999_999, 'serve', Date.now(), { on: status('error') })));
    const read = await readAppStatus(configDir, { isAlive: (pid) => pid === process.pid });
    expect(read.map((entry) => entry.pid)).toEqual([process.pid]);
    expect(read[0]?.servers.on?.state).toBe('connected');
    expect(fs.existsSync(dead)).toBe(false);

    writer.update();
    await waitFor(() => fs.existsSync(writer.file), { what: 'the status file' });
    writer.remove();
    expect(await readAppStatus(configDir)).toEqual([]);
  });
});
