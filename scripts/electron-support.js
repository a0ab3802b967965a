#!/usr/bin/env node
// CI gate: fails when the installed Electron is more than two majors behind the latest on the npm
// registry. Electron supports the latest three majors; an older one gets no Chromium or V8 fixes
// (https://www.electronjs.org/docs/latest/tutorial/electron-timelines). The registry is asked
// through npm itself; when it cannot be reached the gate says so and passes: being offline is not
// a finding about the app.
//
//   node scripts/electron-support.js        (npm run check:electron)
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const SUPPORTED_MAJORS_BEHIND = 2;

/** @returns {{ ok: boolean, behind: number, message: string }} */
export function supportVerdict(installed, latest) {
  const major = (version) => Number.parseInt(String(version).split('.')[0], 10);
  const behind = major(latest) - major(installed);
  if (Number.isNaN(behind)) throw new Error(`Cannot compare Electron versions ${installed} and ${latest}.`);
  const ok = behind <= SUPPORTED_MAJORS_BEHIND;
  const where = behind <= 0 ? 'the latest major' : `${behind} major${behind === 1 ? '' : 's'} behind ${latest}`;
  return {
    ok,
    behind,
    message: ok
      ? `Electron ${installed} is supported: ${where} (the latest three majors get fixes).`
      : `Electron ${installed} is out of support: ${where}. Only the latest three majors get Chromium and V8 fixes; update electron in package.json.`,
  };
}

export function installedElectronVersion(root = path.resolve(import.meta.dirname, '..')) {
  const require = createRequire(path.join(root, 'package.json'));
  return require('electron/package.json').version;
}

/** The registry's latest electron, or undefined with the reason when npm cannot tell. */
export function latestElectronVersion(env = process.env) {
  return new Promise((resolve) => {
    execFile('npm', ['view', 'electron', 'dist-tags.latest', '--json'], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) {
        const reason = (stderr || error.message).split('\n').find((line) => /ERR|error|timed out/i.test(line)) ?? error.message;
        resolve({ version: undefined, reason: reason.trim() });
        return;
      }
      try {
        resolve({ version: JSON.parse(stdout) });
      } catch {
        resolve({ version: undefined, reason: `npm answered ${stdout.slice(0, 200)}` });
      }
    });
  });
}

async function main() {
  const installed = installedElectronVersion();
  const latest = await latestElectronVersion();
  if (!latest.version) {
    console.log(`Electron support not checked: the npm registry could not be reached (${latest.reason}). Installed: ${installed}.`);
    return;
  }
  const verdict = supportVerdict(installed, latest.version);
  (verdict.ok ? console.log : console.error)(verdict.message);
  if (!verdict.ok) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
