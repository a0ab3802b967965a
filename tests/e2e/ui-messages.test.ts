// Messages say a thing once, in the page's language (issue 23, item 15): an error's title is not
// followed by the host's English saying the same again, and a banner's raw details (a D-Bus error)
// wait behind "Details" in English as they do in German and Chinese.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeSecretCodec } from '../support/fake-secret-codec.js';
import { everythingServer, removeTempDirs, tempDir, waitFor } from '../support/index.js';
import { lookEverywhere, SCREEN_SIZES, waitConnected } from './ui-checks.js';
import { startUiSession, type UiSession } from './ui-harness.js';

let session: UiSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
  removeTempDirs();
});

describe('messages', () => {
  it('says why a folder could not be added once, in English and with the title in German', async () => {
    const missing = path.join(tempDir('mcp-roots-messages-'), 'does-not-exist');
    for (const locale of ['en-US', 'de-DE']) {
      session = await startUiSession({ locale });
      const { page } = session;
      await page.getByRole('tab', { name: /Folders|Ordner/ }).click();
      await page.getByLabel(/^(Add a folder|Ordner hinzufügen)$/).fill(`code/project-a\n${missing}`);
      await page.getByRole('button', { name: /^(Add folder|Ordner hinzufügen)$/ }).click();
      const failures = page.getByRole('list', { name: /could not be added|nicht hinzugefügt/ }).getByRole('alert');
      await failures.nth(1).waitFor();
      const texts = await failures.allInnerTexts();
      if (locale === 'en-US') {
        expect(texts).toEqual([`code/project-a — "code/project-a" is not an absolute path.`, `${missing} — "${missing}" does not exist.`]);
        await lookEverywhere(page, 'messages-add-failed', { sizes: SCREEN_SIZES });
      } else {
        // The title in German, then the host's English for the path it names, marked as English.
        expect(texts[0]).toBe('code/project-a — Kein vollständiger Pfad. "code/project-a" is not an absolute path.');
        expect(await failures.first().locator('[lang="en"]').innerText()).toBe('"code/project-a" is not an absolute path.');
      }
      await session.close();
      session = undefined;
    }
  });

  it('keeps the keychain’s raw error behind Details in English, and says the next step (#30 item 4)', async () => {
    const dbus = 'org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files';
    session = await startUiSession({ secrets: fakeSecretCodec({ available: false, unavailableReason: dbus }) });
    const { page, host } = session;
    await host.addServer({ name: 'github', transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_example' } }, enabled: false, sharing: true });
    const notice = page.getByRole('list', { name: 'Notices' }).getByRole('listitem');
    await notice.getByText('No system keychain is available, so secrets in server settings are stored unencrypted. To keep them encrypted, install a keychain (GNOME Keyring, or KWallet on KDE) and log in again.').waitFor();
    const details = notice.locator('details');
    expect(await details.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
    expect(await notice.locator('.banner__text').innerText()).not.toContain('org.freedesktop');
    await details.getByText('Details', { exact: true }).click();
    await details.getByText(dbus, { exact: false }).waitFor();
    await lookEverywhere(page, 'messages-keychain-notice', { sizes: SCREEN_SIZES });
  });

  it('words the sandbox check in the page’s language', async () => {
    session = await startUiSession({ locale: 'de-DE' });
    const { page, host } = session;
    const server = await host.addServer({ name: 'everything', transport: everythingServer(), enabled: true, sharing: true });
    await waitConnected(host, server.id);
    // Where the OS sandbox runs here: its check is logged, and must not stay English.
    const verified = await waitFor(() => host.activity(server.id).find((entry) => entry.code === 'sandbox-verified' || entry.code === 'sandbox-verified-view'), { what: 'the sandbox check', timeoutMs: 15_000 });
    await page.getByRole('tab', { name: /^Server/ }).click();
    const activity = page.getByRole('list', { name: 'Aktivität' });
    // Network on: in a network of its own (pasta) Unix sockets are allowed, sharing the host's they are refused.
    const sockets = verified.params?.sockets === 'refused'
      ? 'Schlüsselbunde, Mount-Aufrufe und Unix-Sockets verweigert'
      : 'Schlüsselbunde und Mount-Aufrufe verweigert; ein eigenes Netz, in dem es die Unix-Sockets des Rechners \\(X11, D-Bus\\) nicht gibt';
    // Its own file view where FUSE works here, else bind mounts, whose protection is static and said so.
    const viewed = verified.code === 'sandbox-verified-view';
    const grants = viewed
      ? '0 Ordner über eine eigene Dateiansicht, jeweils genau der geprüfte Ordner; geschützte Namen in jeder Tiefe und jederzeit verweigert, nichts in deinen Ordnern abgelegt'
      : '0 Ordner wie freigegeben eingebunden, jeweils genau der geprüfte Ordner; 0 geschützte Pfade schreibgeschützt';
    const staticTail = viewed ? '' : ' Sein Schutz ist, was sein Start vorfand \\(Bind-Mounts, hier keine Dateiansicht\\): .*';
    await activity
      .getByText(new RegExp(`^Sandbox geprüft \\(PID \\d+\\): ${grants}; \\/proc\\/sys schreibgeschützt; ${sockets}; die geprüften Dateien außerhalb der Freigaben sind verborgen\\.${staticTail}$`))
      .waitFor();
    expect(await activity.innerText()).not.toContain('Sandbox verified');
    await lookEverywhere(page, 'messages-activity-de', { sizes: SCREEN_SIZES, inView: () => activity.scrollIntoViewIfNeeded() });
  });
});
