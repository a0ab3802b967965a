// The activity log of a real failing server, read in a real browser: its multi-line error in the
// order it wrote it, a retry loop collapsed into rows with counts (not dozens of identical rows),
// a filter by kind, and Copy producing the log as text.
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, waitFor } from '../support/index.js';
import { axeViolations, describeViolations, lookEverywhere, SCREEN_SIZES, seriousOnly } from './ui-checks.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  removeTempDirs();
});

const CRASH = [
  "console.error('Error: GITHUB_TOKEN environment variable is required');",
  "console.error('    at main (/srv/github-server/index.js:12:11)');",
  "console.error('    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)');",
  'process.exit(1)',
].join(' ');

describe('activity log', () => {
  it('keeps a stack trace in order, collapses a retry loop, filters and copies', async () => {
    session = await startUiSession({ reconnectDelaysMs: [50], clipboard: true });
    const { page, host } = session;
    const server = await host.addServer({ name: 'github', transport: { type: 'stdio', command: process.execPath, args: ['-e', CRASH], env: {} }, enabled: true, sharing: true });
    // Let it fail until it is held (five starts in a row that ended before answering, #30 item 6):
    // without collapsing that would be twenty rows.
    await waitFor(() => host.getState().servers.find((view) => view.id === server.id)?.status.held?.reason === 'exits-at-start', { what: 'the retry loop held', timeoutMs: 60_000 });
    expect(host.activity(server.id).filter((entry) => entry.kind === 'error').length).toBe(5);
    await host.setEnabled(server.id, false);

    await page.getByRole('tab', { name: /Servers/ }).click();
    const log = page.getByRole('list', { name: 'Activity' });
    const outputRow = log.getByRole('listitem').filter({ hasText: 'GITHUB_TOKEN environment variable is required' }).filter({ has: page.locator('.timeline__lines') });
    await outputRow.first().waitFor();
    // One row for all the retries' output, its lines in the order written.
    expect(await outputRow.count()).toBe(1);
    expect(await outputRow.locator('.timeline__lines').textContent()).toBe(
      [
        'Error: GITHUB_TOKEN environment variable is required',
        '    at main (/srv/github-server/index.js:12:11)',
        '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      ].join('\n'),
    );
    const errors = host.activity(server.id).filter((entry) => entry.kind === 'error').length;
    expect(Number((await outputRow.locator('.timeline__count').textContent())?.slice(1))).toBe(errors);
    const errorRow = log.getByRole('listitem').filter({ hasText: 'exited with code 1' });
    expect(await errorRow.count()).toBe(1);
    expect(await log.getByRole('listitem').count()).toBeLessThan(10);
    await screenshot(page, 'activity-collapsed');
    const serious = seriousOnly(await axeViolations(page));
    expect(serious, describeViolations(serious)).toEqual([]);

    // Filter: only connection events (here, being held, then switched off).
    await page.getByLabel('Show', { exact: true }).selectOption('connection');
    await waitFor(async () => (await log.getByRole('listitem').filter({ hasText: 'GITHUB_TOKEN' }).count()) === 0, { what: 'output filtered out' });
    expect(await log.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/Restart.*Switched off, from this app\./),
      expect.stringMatching(/Info.*ended before answering 5 times in a row\. Check its command/),
    ]);
    await page.getByLabel('Show', { exact: true }).selectOption('all');

    // Copy: the whole log as text, oldest first, with the count.
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`Output (×${errors})\n    Error: GITHUB_TOKEN environment variable is required\n        at main`);
    expect(copied.indexOf('Output')).toBeLessThan(copied.lastIndexOf('Restart'));

    // History counts the same happenings alike: one row for the output, one for the exit, each ×5.
    await page.getByRole('tab', { name: /History/ }).click();
    const history = page.getByRole('list', { name: 'History' });
    const output = history.getByRole('listitem').filter({ hasText: 'GITHUB_TOKEN environment variable is required' });
    await output.first().waitFor();
    expect(await output.count()).toBe(1);
    expect(await output.locator('.history__output').textContent()).toContain('Error: GITHUB_TOKEN environment variable is required\n    at main');
    expect(await output.locator('.timeline__count').textContent()).toBe(`×${errors}`);
    const exits = history.getByRole('listitem').filter({ hasText: 'exited with code 1' });
    expect(await exits.count()).toBe(1);
    expect(await exits.locator('.timeline__count').textContent()).toBe(`×${errors}`);
    await lookEverywhere(page, 'history-collapsed', { sizes: SCREEN_SIZES });
  });
});
