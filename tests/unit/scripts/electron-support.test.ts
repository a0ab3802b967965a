// The CI gate on Electron's support window: the latest three majors pass, anything older fails,
// and an unreachable registry is reported, never a failure.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { installedElectronVersion, latestElectronVersion, supportVerdict } from '../../../scripts/electron-support.js';

const run = promisify(execFile);
const script = path.resolve(import.meta.dirname, '../../../scripts/electron-support.js');
/** npm pointed at a closed local port, without retries: "the registry cannot be reached", quickly. */
const offline = { ...process.env, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' };

describe('the Electron support gate', () => {
  it.each([
    ['45.4.1', '45.4.1', true, 0],
    ['44.11.5', '45.4.1', true, 1],
    ['43.0.0', '45.4.1', true, 2],
    ['42.9.9', '45.4.1', false, 3],
    ['41.7.1', '45.4.1', false, 4],
  ])('installed %s against latest %s passes: %s', (installed, latest, ok, behind) => {
    expect(supportVerdict(installed, latest)).toMatchObject({ ok, behind });
  });

  it('names the fix when it fails', () => {
    expect(supportVerdict('41.7.1', '45.4.1').message).toMatch(/out of support: 4 majors behind 45\.4\.1.*update electron/);
  });

  it('reads the installed version from node_modules', () => {
    expect(installedElectronVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('says the registry could not be reached and passes', async () => {
    expect(await latestElectronVersion(offline)).toMatchObject({ version: undefined, reason: expect.any(String) });
    const { stdout } = await run(process.execPath, [script], { env: offline });
    expect(stdout).toMatch(/^Electron support not checked: the npm registry could not be reached/);
  });
});
