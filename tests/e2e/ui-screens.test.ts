// Every main screen (and dialog) in light and dark: a screenshot to look at, and an axe-core scan
// that must find no serious or critical violation.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';
import { axeViolations, describeViolations, seriousOnly, waitConnected, type AxeViolation } from './ui-checks.js';

type Scheme = 'light' | 'dark';
const SCHEMES: Scheme[] = ['light', 'dark'];

let session: UiSession;
const findings: { screen: string; violations: AxeViolation[] }[] = [];

async function capture(screen: string, scheme: Scheme): Promise<void> {
  const { page } = session;
  await page.emulateMedia({ colorScheme: scheme });
  // Let transitions settle (reduced motion is on, so this is short).
  await page.waitForTimeout(150);
  await screenshot(page, `${screen}-${scheme}`);
  findings.push({ screen: `${screen} (${scheme})`, violations: await axeViolations(page) });
}

beforeAll(async () => {
  session = await startUiSession();
});

afterAll(async () => {
  await session?.close();
  removeTempDirs();
  const all = findings.flatMap((finding) => finding.violations.map((violation) => `${finding.screen}: ${violation.impact} ${violation.id}`));
  if (all.length > 0) console.log(`axe findings (all impacts):\n${[...new Set(all)].join('\n')}`);
});

describe('screens in light and dark', () => {
  it('empty states', async () => {
    const { page } = session;
    for (const scheme of SCHEMES) {
      await page.getByRole('tab', { name: /Folders/ }).click();
      await capture('empty-folders', scheme);
      await page.getByRole('tab', { name: 'Access' }).click();
      await capture('empty-access', scheme);
      await page.getByRole('tab', { name: /Servers/ }).click();
      await capture('empty-servers', scheme);
    }
  });

  it('folders, access, servers and dialogs with real servers', async () => {
    const { page, host } = session;
    const work = tempDir('mcp-roots-screens-');
    const make = (name: string) => {
      const folder = path.join(work, name);
      fs.mkdirSync(folder);
      return folder;
    };
    const website = make('website');
    const notes = make('notes & ideas');
    const real = make('datasets-2026');
    const link = path.join(work, 'data');
    fs.symlinkSync(real, link);
    const old = make('old-project');
    const { added } = await host.addRoots([website, notes, link, old]);
    const ids = added.map((root) => root.id);
    const fsServer = await host.addServer({ name: 'filesystem', transport: filesystemServer(), enabled: true, sharing: true });
    const everything = await host.addServer({
      name: 'everything',
      transport: { ...everythingServer(), env: { API_TOKEN: 'secret-value-never-shown' } },
      enabled: true,
      sharing: true,
    });
    await host.addServer({ name: 'remote-search', transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer xyz' } }, enabled: false, sharing: true });
    await waitConnected(host, fsServer.id);
    await waitConnected(host, everything.id);
    await host.setGrants([fsServer.id], [ids[0]!, ids[2]!, ids[3]!], true);
    fs.rmSync(old, { recursive: true });
    await waitFor(() => host.getState().roots.find((root) => root.id === ids[3])?.access.state === 'missing', { what: 'missing' });
    await waitFor(() => host.getState().consentRequests.some((request) => request.serverId === everything.id), { what: 'consent request' });

    for (const scheme of SCHEMES) {
      await page.getByRole('tab', { name: /Folders/ }).click();
      await page.getByRole('row', { name: /old-project/ }).getByText('Missing').waitFor();
      await capture('folders', scheme);

      await page.getByRole('tab', { name: 'Access' }).click();
      await page.getByRole('checkbox', { name: 'Select folder notes & ideas' }).check();
      await capture('access', scheme);
      await page.getByRole('button', { name: 'Clear selection' }).click();

      await page.getByRole('tab', { name: /Servers/ }).click();
      await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /filesystem/ }).click();
      await page.getByTestId('last-roots-request').getByText('answered 2 folders').waitFor();
      await capture('servers', scheme);

      await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: /everything/ }).click();
      await page.getByRole('button', { name: 'Edit' }).click();
      const form = page.getByRole('dialog', { name: 'Edit everything' });
      await form.waitFor();
      // The stored secret never reaches the page: only "saved" is shown.
      expect(await page.content()).not.toContain('secret-value-never-shown');
      await capture('server-form', scheme);
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'detached' });

      await page.getByRole('group', { name: 'Folder request from everything' }).getByRole('button', { name: 'Choose folders…' }).click();
      const consent = page.getByRole('dialog', { name: 'Share folders with everything' });
      await consent.getByRole('checkbox', { name: /website/ }).check();
      await capture('consent-dialog', scheme);
      await page.keyboard.press('Escape');
      await consent.waitFor({ state: 'detached' });

      await page.getByRole('tab', { name: /Folders/ }).click();
      await page.getByRole('button', { name: 'Remove notes & ideas' }).click();
      await page.getByRole('alertdialog').waitFor();
      await capture('remove-confirm', scheme);
      await page.keyboard.press('Escape');
    }

    // The same screens in the other two languages, light only.
    for (const [locale, label] of [['zh-CN', 'Language'], ['de', '语言']] as const) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.getByLabel(label).selectOption(locale);
      await page.waitForTimeout(200);
      for (const tab of [0, 1, 2]) {
        await page.getByRole('tab').nth(tab).click();
        await capture(`${locale}-tab${tab + 1}`, 'light');
      }
    }
    await page.getByLabel('Sprache').selectOption('system');

    // A narrow window: the header wraps and the servers screen stacks.
    await page.setViewportSize({ width: 820, height: 900 });
    await page.getByRole('tab', { name: 'Access' }).waitFor();
    for (const tab of ['Folders', 'Access', 'Servers']) {
      await page.getByRole('tab', { name: new RegExp(tab) }).click();
      await capture(`narrow-${tab.toLowerCase()}`, 'dark');
    }
    await page.setViewportSize({ width: 1360, height: 860 });
  });

  it('has no serious or critical axe violations on any screen', () => {
    const serious = findings.flatMap((finding) =>
      seriousOnly(finding.violations).map((violation) => ({ screen: finding.screen, violation })),
    );
    expect(findings.length).toBeGreaterThan(10);
    expect(serious.map(({ screen, violation }) => `${screen}: ${describeViolations([violation])}`)).toEqual([]);
  });
});
