// A server the app holds back (a flood read at its limited pace, then closed when it floods on)
// says so in its details: the "Held back" fact, in light and dark, at 800x600 and 1280x800, with no
// serious axe finding and no page or console error.
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES } from './ui-checks.js';
import { repoRoot, startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession;
const problems: string[] = [];

beforeAll(async () => {
  session = await startUiSession();
  session.page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  session.page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
});

/** Screenshots of the fact in light and dark, at 800x600 and 1280x800, with no serious axe finding. */
async function everySizeAndScheme(fact: Locator, name: string): Promise<void> {
  await lookEverywhere(session.page, name, { sizes: SCREEN_SIZES, inView: () => fact.scrollIntoViewIfNeeded() });
}

describe('a server held back', () => {
  it('shows why in its details, on every size and scheme', async () => {
    const { page, host } = session;
    const flooder = await host.addServer({
      name: 'chatty',
      transport: { type: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'tests/fixtures/hostile-server.mjs'), 'flood-roots-max'], env: {} },
      enabled: true,
      sharing: true,
    });
    await page.getByRole('tab', { name: /Servers/ }).click();
    await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /chatty/ }).click();
    const fact = page.getByTestId('limited-fact');
    await fact.waitFor({ timeout: 60_000 });
    expect(await fact.textContent()).toMatch(/Held back.*more than 200 messages a second/);

    await everySizeAndScheme(fact, 'server-held-back');

    // It floods on after its pauses: the session is closed, and the fact says so.
    await page.getByText(/kept sending more than 200 messages a second after being paused/).waitFor({ timeout: 90_000 });
    await everySizeAndScheme(fact, 'server-closed-for-flooding');
    await host.setEnabled(flooder.id, false);
    expect(problems).toEqual([]);
  });
});
