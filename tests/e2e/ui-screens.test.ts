// Every screen and dialog in three languages, at the desktop window's minimum (800 x 600) and at
// 1280 x 800, in light and dark: a screenshot of each to look at, an axe-core scan that must find no
// serious or critical violation, and a check that no word overflows its control (long German words).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTranslator, type Translate } from '../../shared/i18n/translate.js';
import type { UiLocale } from '../../shared/i18n/messages.js';
import { everythingServer, filesystemServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { axeViolations, describeViolations, seriousOnly, showScheme, waitConnected, type AxeViolation } from './ui-checks.js';
import { screenshot, startUiSession, type UiSession } from './ui-harness.js';

type Scheme = 'light' | 'dark';
const LOCALES: UiLocale[] = ['en', 'de', 'zh-CN'];
const SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
];
const SCHEMES: Scheme[] = ['light', 'dark'];

let session: UiSession;
const findings: { screen: string; violations: AxeViolation[] }[] = [];
const overflows: string[] = [];

/**
 * Controls and labels whose words do not fit: a button, tab, badge, label or heading whose text
 * runs past its box (clipped or spilling), and any sideways scrolling of the page itself.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) found.push(`page scrolls sideways (${document.documentElement.scrollWidth}px)`);
    const selector = 'button, [role="tab"], .badge, label, h1, h2, h3, .tabs__tab, .segmented__option, .banner__title, dt, .field-label';
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (element.offsetParent === null || element.closest('[aria-hidden="true"], .visually-hidden')) continue;
      const style = getComputedStyle(element);
      // Text cut on purpose with an ellipsis (paths, commands in lists) shows its full text on hover.
      if (style.textOverflow === 'ellipsis') continue;
      // A 1-pixel box is text hidden for screen readers on purpose (visually hidden).
      if (element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 1) {
        found.push(`${element.tagName.toLowerCase()}.${element.className} "${element.textContent?.trim().slice(0, 60)}" ${element.scrollWidth}>${element.clientWidth}`);
      }
    }
    return found;
  });
}

async function capture(name: string, scheme: Scheme): Promise<void> {
  const { page } = session;
  await showScheme(page, scheme);
  await screenshot(page, `${name}-${scheme}`);
  findings.push({ screen: `${name} (${scheme})`, violations: await axeViolations(page) });
  for (const problem of await overflowing(page)) overflows.push(`${name} (${scheme}): ${problem}`);
}

beforeAll(async () => {
  // The folder browser starts at home: a stand-in with a few folders, never the real one.
  const home = tempDir('mcp-roots-home-');
  for (const name of ['Documents', 'Downloads', 'Projects', 'Musik und Hörbücher', '下载']) fs.mkdirSync(path.join(home, name));
  vi.stubEnv('HOME', home);
  session = await startUiSession({ viewport: SIZES[0] });
  const { host } = session;
  const work = tempDir('mcp-roots-screens-');
  const make = (name: string) => {
    const folder = path.join(work, name);
    fs.mkdirSync(folder, { recursive: true });
    return folder;
  };
  const website = make('website');
  const notes = make('notes & ideas');
  const real = make('datasets-2026');
  const link = path.join(work, 'data');
  fs.symlinkSync(real, link);
  const old = make('old-project');
  const clientWeb = make('client/web-service');
  const serverWeb = make('server/web-service');
  const { added } = await host.addRoots([website, notes, link, old, clientWeb, serverWeb]);
  const ids = added.map((root) => root.id);
  const fsServer = await host.addServer({ name: 'filesystem', transport: filesystemServer(), enabled: true, sharing: true });
  const everything = await host.addServer({
    name: 'everything',
    transport: { ...everythingServer(), env: { API_TOKEN: 'secret-value-never-shown' } },
    enabled: true,
    sharing: true,
  });
  await host.addServer({ name: 'remote-search', transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer xyz' } }, enabled: false, sharing: true });
  // A typo: "command not found", with the likely command.
  await host.addServer({ name: 'github', transport: { type: 'stdio', command: 'npxx', args: ['-y', '@modelcontextprotocol/server-github'], env: {} }, enabled: true, sharing: true });
  await waitConnected(host, fsServer.id);
  await waitConnected(host, everything.id);
  await host.setGrants([fsServer.id], [ids[0]!, ids[2]!, ids[3]!], true);
  fs.rmSync(old, { recursive: true });
  await waitFor(() => host.getState().roots.find((root) => root.id === ids[3])?.access.state === 'missing', { what: 'missing' });
  await waitFor(() => host.getState().consentRequests.some((request) => request.serverId === everything.id), { what: 'consent request' });
  await waitFor(() => host.getState().servers.find((server) => server.name === 'github')?.status.failure, { what: 'the typo to fail' });
}, 90_000);

afterAll(async () => {
  await session?.close();
  vi.unstubAllEnvs();
  removeTempDirs();
  const all = findings.flatMap((finding) => finding.violations.map((violation) => `${finding.screen}: ${violation.impact} ${violation.id}`));
  if (all.length > 0) console.log(`axe findings (all impacts):\n${[...new Set(all)].join('\n')}`);
});

async function screens(t: Translate, prefix: string, scheme: Scheme): Promise<void> {
  const { page } = session;
  const tab = (key: 'tabs.roots' | 'tabs.access' | 'tabs.servers') => page.getByRole('tab', { name: new RegExp(`^${t(key)}`) });
  const servers = () => page.getByRole('navigation', { name: t('servers.listLabel') });

  await tab('tabs.roots').click();
  await page.getByRole('table', { name: t('roots.tableLabel') }).getByText('old-project', { exact: true }).waitFor();
  await capture(`${prefix}-folders`, scheme);

  await tab('tabs.access').click();
  await page.getByRole('grid').waitFor();
  await capture(`${prefix}-access`, scheme);

  await tab('tabs.servers').click();
  await servers().getByRole('button', { name: /^github/ }).click();
  await page.getByTestId('server-failure').waitFor();
  await capture(`${prefix}-servers-error`, scheme);
  await servers().getByRole('button', { name: /^filesystem/ }).click();
  await page.getByTestId('last-roots-request').waitFor();
  await capture(`${prefix}-servers`, scheme);

  // Dialogs, each closed with Escape.
  const dialogs: [string, () => Promise<void>][] = [
    ['add-server', () => page.getByRole('button', { name: t('servers.add'), exact: true }).first().click()],
    ['use-with', () => page.locator('.server-detail').getByRole('button', { name: t('useWith.open') }).click()],
    ['import', () => page.getByRole('button', { name: t('import.open') }).click()],
    ['consent', () => page.getByRole('button', { name: t('consent.choose') }).first().click()],
    [
      'remove-folder',
      async () => {
        await tab('tabs.roots').click();
        await page.getByRole('button', { name: t('roots.remove', { name: 'website' }) }).click();
      },
    ],
    ['folder-browser', () => page.getByRole('button', { name: t('roots.browseBrowser') }).click()],
  ];
  for (const [name, open] of dialogs) {
    await open();
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    if (name === 'folder-browser') await dialog.getByRole('listbox').waitFor();
    await capture(`${prefix}-dialog-${name}`, scheme);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
}

describe('empty screens', () => {
  it('teach what to do first, at both sizes', async () => {
    const empty = await startUiSession();
    try {
      for (const size of SIZES) {
        await empty.page.setViewportSize(size);
        for (const [tab, heading] of [['Folders', 'No folders yet'], ['Access', 'Nothing to share yet'], ['Servers', 'No servers yet']] as const) {
          await empty.page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
          await empty.page.getByRole('heading', { level: 2 }).first().waitFor();
          expect(await empty.page.getByRole('heading').allTextContents()).toContain(heading);
          await screenshot(empty.page, `empty-${tab.toLowerCase()}-${size.width}x${size.height}`);
          const serious = seriousOnly(await axeViolations(empty.page));
          expect(serious, describeViolations(serious)).toEqual([]);
        }
      }
    } finally {
      await empty.close();
    }
  });
});

describe('every screen, three languages, two sizes, light and dark', () => {
  for (const locale of LOCALES) {
    it(`in ${locale}`, async () => {
      const { page, host } = session;
      await host.updateSettings({ locale });
      const t = createTranslator(locale);
      await page.getByRole('tab', { name: new RegExp(`^${t('tabs.roots')}`) }).waitFor();
      for (const size of SIZES) {
        await page.setViewportSize(size);
        for (const scheme of SCHEMES) await screens(t, `${locale}-${size.width}x${size.height}`, scheme);
      }
      // The stored secret never reached the page.
      expect(await page.content()).not.toContain('secret-value-never-shown');
      // Activity messages are worded from their codes in this language, not left in English.
      await page.getByRole('tab', { name: new RegExp(`^${t('tabs.servers')}`) }).click();
      await page.getByRole('navigation', { name: t('servers.listLabel') }).getByRole('button', { name: /^filesystem/ }).click();
      const info = host.getState().servers.find((server) => server.name === 'filesystem')?.status;
      const connected = t('activityMsg.connected', { protocol: info?.protocolVersion ?? '', server: `${info?.serverInfo?.name} ${info?.serverInfo?.version}` });
      await page.getByRole('list', { name: t('activity.title') }).getByText(connected, { exact: true }).first().waitFor();
    });
  }

  it('has no serious or critical axe violations, and no words that do not fit', () => {
    const serious = findings.flatMap((finding) => seriousOnly(finding.violations).map((violation) => ({ screen: finding.screen, violation })));
    expect(findings.length).toBe(LOCALES.length * SIZES.length * SCHEMES.length * 10);
    expect(serious.map(({ screen, violation }) => `${screen}: ${describeViolations([violation])}`)).toEqual([]);
    expect(overflows).toEqual([]);
  });
});
