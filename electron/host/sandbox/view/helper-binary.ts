// Where the sandbox helper is (native/sandbox-helper, built into dist/native/ by `npm run
// build:native`), and whether this machine can host a file view (its probe). Found beside the code
// that runs: the checkout's dist/, or the packaged app's (unpacked from app.asar, where a program
// cannot run).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HELPER_NAME = 'mcp-roots-sandbox';

/** Whether the view may be used and with what; else why not (in words for the self-check and status). */
export type ViewSupport = { available: true; helper: string; fuseDevice: string } | { available: false; reason: string };

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The helper's path, or undefined where it was not built (no C compiler at install). */
export function helperBinary(): string | undefined {
  const override = process.env.MCP_ROOTS_SANDBOX_HELPER;
  if (override) return executable(override) ? override : undefined;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, 'native', HELPER_NAME), path.join(dir, 'dist', 'native', HELPER_NAME)]) {
      // Inside app.asar a program cannot run: the packaged app unpacks it beside (electron-builder.yml asarUnpack).
      const runnable = candidate.replace(/\.asar([/\\])/, '.asar.unpacked$1');
      if (executable(runnable)) return runnable;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The FUSE device: /dev/fuse, or where MCP_ROOTS_FUSE_DEVICE says (a container may keep it elsewhere). */
export function fuseDevice(): string {
  return process.env.MCP_ROOTS_FUSE_DEVICE || '/dev/fuse';
}

/** The helper's own trial (probe.c): a user namespace, the FUSE device opened there, a FUSE file system made. */
export function probeView(timeoutMs: number): Promise<ViewSupport> {
  if (process.env.MCP_ROOTS_FILE_VIEW === 'off') return Promise.resolve({ available: false, reason: 'the file view is turned off (MCP_ROOTS_FILE_VIEW=off)' });
  const helper = helperBinary();
  if (!helper) {
    return Promise.resolve({
      available: false,
      reason: `the sandbox helper (${HELPER_NAME}) was not built: install a C compiler (Debian: build-essential) and run \`npm run build:native\``,
    });
  }
  const device = fuseDevice();
  return new Promise((resolve) => {
    execFile(helper, ['probe', '--fuse-device', device], { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout) => {
      try {
        const answer = JSON.parse(stdout.trim()) as { view?: unknown; reason?: unknown };
        if (answer.view === true) return resolve({ available: true, helper, fuseDevice: device });
        if (typeof answer.reason === 'string') return resolve({ available: false, reason: answer.reason });
      } catch {
        // Not its answer: said below.
      }
      resolve({ available: false, reason: `the sandbox helper's probe failed (${error?.message ?? 'no answer'})` });
    });
  });
}
