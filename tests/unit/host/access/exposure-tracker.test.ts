// The tracker a proxy uses, scoped to its one server: it watches the way to that server's granted
// folders only, and an accessibility change there reaches the server's view by an event.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExposureTracker } from '../../../../electron/host/access/exposure-tracker.js';
import type { Registry } from '../../../../shared/domain.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';
import { removeTempDirs, tempDir, waitFor } from '../../../support/index.js';

const trackers: ExposureTracker[] = [];
afterEach(() => {
  for (const tracker of trackers.splice(0)) tracker.stop();
  removeTempDirs();
});

const server = (id: string): Registry['servers'][number] => ({
  id,
  name: id,
  transport: { type: 'stdio', command: 'x', args: [], env: {} },
  enabled: true,
  sharing: true,
  sandbox: true,
  network: true,
  askForFolders: true,
  addedAt: '',
});

describe('ExposureTracker', () => {
  it('scoped to one server, watches only the way to its granted folders, and sees a parent renamed by an event', async () => {
    const base = tempDir();
    // 100 folders granted to another server, each in its own parent; one folder granted to ours.
    const others = Array.from({ length: 100 }, (_, i) => path.join(base, `other-${i}`, 'project'));
    const mine = path.join(base, 'mine', 'project');
    for (const folder of [...others, mine]) fs.mkdirSync(folder, { recursive: true });
    const registry: Registry = {
      ...emptyRegistry(),
      roots: [...others, mine].map((folder, i) => ({ id: `r${i}`, path: folder, canonicalPath: folder, name: `R${i}`, addedAt: '' })),
      servers: [server('proxied'), server('other')],
      grants: {
        proxied: { r100: 'read-write' },
        other: Object.fromEntries(others.map((_, i) => [`r${i}`, 'read-only' as const])),
      },
    };

    const scoped = new ExposureTracker({ scope: 'proxied', monitor: { sweepIntervalMs: 0 } });
    const whole = new ExposureTracker({ monitor: { sweepIntervalMs: 0 } });
    trackers.push(scoped, whole);
    scoped.update(registry);
    whole.update(registry);
    expect(scoped.get('proxied').folders.map((folder) => folder.path)).toEqual([mine]);

    // The scoped tracker's watches: base's ancestors, base and base/mine. The whole registry's: 100 more.
    const ancestors = base.split(path.sep).filter(Boolean).length; // '/' and each directory above base
    expect(scoped.watcherCount).toBe(ancestors + 2);
    expect(whole.watcherCount).toBe(ancestors + 1 + 101);

    const changes: string[][] = [];
    scoped.on('change', (change) => changes.push(change.changed));
    fs.renameSync(path.join(base, 'mine'), path.join(base, 'mine-moved'));
    await waitFor(() => scoped.get('proxied').folders.length === 0, { what: 'the folder hidden from the proxied server', timeoutMs: 30_000 });
    expect(changes).toEqual([['proxied']]);
    fs.renameSync(path.join(base, 'mine-moved'), path.join(base, 'mine'));
    await waitFor(() => scoped.get('proxied').folders.length === 1, { what: 'the folder shown again', timeoutMs: 30_000 });
  });
});
