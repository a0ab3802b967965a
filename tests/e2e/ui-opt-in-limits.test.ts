// Issue #22 on screen: a grant's protected-path choice (classes 1) and a server's limits (class 8),
// with a real server in real bubblewrap. The choice is made where the grant's mode is, shows as a
// marker naming the paths, and reaches the sandbox (the self-check names it); the limits show what
// the self-check proved, and the form refuses a value out of bounds and saves one within, restarting
// the server. Every screen in light and dark, at 800x600 and 1280x800, scanned with axe.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RootsHost } from '../../electron/host/roots-host.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import type { ServerView } from '../../shared/domain.js';
import { filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { cellName, lookEverywhere, SCREEN_SIZES } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

const support = await probeSandbox();
let session: UiSession;
const problems: string[] = [];

const view = (host: RootsHost, id: string): ServerView => host.getState().servers.find((server) => server.id === id) as ServerView;
const verified = (host: RootsHost, id: string) => view(host, id).status.confinement?.selfCheck?.verified === true && view(host, id).status.state === 'connected';

beforeAll(async () => {
  session = await startUiSession({ viewport: { width: 1280, height: 800 } });
  session.page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  session.page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

describe.runIf(support.kind === 'bwrap')('protected paths by choice, and limits, on screen', () => {
  let serverId: string;

  it('chooses a protected path for one grant where its mode is, and marks the cell with the paths', async () => {
    const { page, host } = session;
    const project = path.join(tempDir('mcp-roots-opt-in-'), 'webapp');
    execFileSync('git', ['init', '-q', project]);
    fs.mkdirSync(path.join(project, '.vscode'));
    const [root] = (await host.addRoots([project])).added;
    serverId = (await host.addServer({ name: 'editor', transport: filesystemServer(), enabled: true, sharing: true })).id;
    await host.setGrants([serverId], [root!.id], true, 'read-write');
    await waitFor(() => verified(host, serverId), { what: 'the confined server to pass its self-check', timeoutMs: 30_000 });

    await page.getByRole('tab', { name: /Access/ }).click();
    const cell = page.getByRole('gridcell').filter({ has: page.getByRole('checkbox', { name: cellName('webapp', 'editor') }) });
    await cell.hover();
    await cell.getByRole('button', { name: 'Protected paths that editor may write in webapp' }).click();
    const dialog = page.getByTestId('opt-in-dialog');
    await dialog.getByRole('checkbox', { name: '.vscode' }).waitFor();
    // Nothing is ticked until the person ticks it.
    expect(await dialog.getByRole('checkbox', { checked: true }).count()).toBe(0);
    await dialog.getByRole('checkbox', { name: '.vscode' }).check();
    await lookEverywhere(page, 'opt-in-dialog', { sizes: SCREEN_SIZES });
    const before = view(host, serverId).status.confinement?.selfCheck?.at ?? 0;
    await dialog.getByRole('button', { name: 'Save and restart' }).click();
    await dialog.waitFor({ state: 'detached' });

    const marker = cell.getByRole('button', { name: '+1 Writable by your choice: .vscode' });
    await marker.waitFor();
    expect(await marker.getAttribute('title')).toBe('+1 Writable by your choice: .vscode');
    expect(view(host, serverId).writableByChoice).toEqual({ [root!.id]: ['.vscode'] });
    // It reached the sandbox: the restarted server's self-check leaves it out of the proof and names it.
    await waitFor(() => verified(host, serverId) && (view(host, serverId).status.confinement?.selfCheck?.at ?? 0) > before, { what: 'the restart and a new self-check', timeoutMs: 30_000 });
    expect(view(host, serverId).status.confinement?.selfCheck?.detail).toContain(`writable by your choice: ${fs.realpathSync(project)}/.vscode`);
    // From the keyboard: P on the cell's checkbox opens the same choice, with what was chosen ticked.
    await cell.getByRole('checkbox', { name: cellName('webapp', 'editor') }).focus();
    await page.keyboard.press('p');
    await dialog.getByRole('checkbox', { name: '.vscode', checked: true }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await lookEverywhere(page, 'matrix-opt-in-marker', { sizes: SCREEN_SIZES, inView: () => marker.scrollIntoViewIfNeeded() });
    expect(problems).toEqual([]);
  });

  it('shows each limit with what the self-check proved, and saves a new one within its bounds', async () => {
    const { page, host } = session;
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /editor/ }).click();
    const limits = page.getByRole('region', { name: 'Sandbox limits' });
    await limits.waitFor();
    const proven = view(host, serverId).status.confinement?.selfCheck?.limits;
    expect(proven, 'the self-check says which limits it read').toBeDefined();
    const word = (ok: boolean | undefined) => (ok ? 'enforced' : 'NOT limited');
    const memory = limits.locator('[data-limit="memoryMiB"]');
    let shown: string | null = null;
    await waitFor(async () => (shown = await memory.textContent())?.includes(`8,192 MiB (default) · ${word(proven!.memoryMiB)}`) === true, {
      what: 'the memory limit and its proof',
      explain: () => `shown: ${shown}; proven: ${JSON.stringify(proven)}`,
    });
    expect(await limits.locator('[data-limit="tasks"]').textContent()).toContain(`1,024 (default) · ${word(proven!.tasks)}`);
    expect(await limits.locator('[data-limit="home"]').textContent()).toContain('not capped');
    await lookEverywhere(page, 'server-limits', { sizes: SCREEN_SIZES, inView: () => limits.scrollIntoViewIfNeeded() });

    await limits.getByRole('button', { name: 'Change limits' }).click();
    const tasks = limits.getByRole('textbox', { name: /Tasks/ });
    await tasks.fill('8');
    await limits.getByRole('button', { name: 'Save and restart' }).click();
    await limits.getByRole('alert').getByText('A whole number from 16 to 65,536.').waitFor();
    expect(view(host, serverId).limits).toBeUndefined();
    await lookEverywhere(page, 'server-limits-form', { sizes: SCREEN_SIZES, inView: () => limits.scrollIntoViewIfNeeded() });

    const before = view(host, serverId).status.confinement?.selfCheck?.at ?? 0;
    await tasks.fill('256');
    await limits.getByRole('button', { name: 'Save and restart' }).click();
    await limits.getByText('Saved. The server restarts to apply them.').waitFor();
    expect(view(host, serverId).limits).toEqual({ tasks: 256 });
    await waitFor(() => verified(host, serverId) && (view(host, serverId).status.confinement?.selfCheck?.at ?? 0) > before, { what: 'the restart with the new limit', timeoutMs: 30_000 });
    await limits.locator('[data-limit="tasks"]').getByText(/^256/).waitFor();
    expect(problems).toEqual([]);
  });
});
