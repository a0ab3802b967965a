// Accessibility changes reach a real server by events alone: the host runs with the sweep switched
// off, so only a watch can have noticed each change. What server-filesystem itself lists is the truth.
// How fast: the benchmark (section 6).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addConnectedServer, addRoot, callText, startHost, stopHosts } from '../support/host-harness.js';
import { allowedDirectories, filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('accessibility changes, event-driven, through a real server', () => {
  it('a parent renamed, a folder deleted, a folder swapped for a symlink: server-filesystem follows each, and each undo', async () => {
    const host = await startHost({ monitor: { sweepIntervalMs: 0 } });
    const base = tempDir('access-events-');
    const parentA = path.join(base, 'clients');
    const a = path.join(parentA, 'acme');
    const b = path.join(base, 'notes');
    fs.mkdirSync(a, { recursive: true });
    fs.mkdirSync(b);
    const rootA = await addRoot(host, a);
    const rootB = await addRoot(host, b);
    const id = await addConnectedServer(host, 'filesystem', filesystemServer());
    await host.setGrants([id], [rootA, rootB], true);
    const sees = async (expected: string[]) => {
      const seen = allowedDirectories(await callText(host, id, 'list_allowed_directories'));
      return JSON.stringify([...seen].sort()) === JSON.stringify([...expected].sort());
    };
    await waitFor(() => sees([a, b]), { what: 'both folders' });

    fs.renameSync(parentA, `${parentA}-old`);
    await waitFor(() => sees([b]), { what: 'the folder under the renamed parent hidden' });
    expect(host.getState().roots.find((root) => root.id === rootA)?.access.state).toBe('missing');
    fs.renameSync(`${parentA}-old`, parentA);
    await waitFor(() => sees([a, b]), { what: 'the parent renamed back: both again' });

    fs.rmSync(b, { recursive: true });
    await waitFor(() => sees([a]), { what: 'the deleted folder hidden' });
    fs.mkdirSync(b);
    await waitFor(() => sees([a, b]), { what: 'the restored folder shown' });

    const elsewhere = tempDir('elsewhere-');
    fs.rmSync(b, { recursive: true });
    fs.symlinkSync(elsewhere, b);
    await waitFor(() => host.getState().roots.find((root) => root.id === rootB)?.access.state === 'target-changed', {
      what: 'target-changed badge',
    });
    // The symlink is not followed to where it now leads: the folder is hidden until confirmed.
    await waitFor(() => sees([a]), { what: 'the swapped folder hidden' });
  });
});
