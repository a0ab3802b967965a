// The sandbox helper (native/sandbox-helper) is part of every build on Linux where a C compiler
// exists: a missing helper would quietly leave servers with static protection only. It compiles
// without a warning under the build's own flags.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOnPath } from '../../../electron/host/sandbox/sandbox-probe.js';
import { helperBinary } from '../../../electron/host/sandbox/view/helper-binary.js';
import { CFLAGS, helperSources } from '../../../scripts/build-native.js';

const compiler = process.platform === 'linux' ? findOnPath(process.env.CC || 'cc', process.env.PATH) : undefined;

describe.runIf(compiler !== undefined)('the sandbox helper', () => {
  it('is built (npm install builds it wherever a C compiler is)', () => {
    expect(helperBinary(), 'dist/native/mcp-roots-sandbox: run `npm run build:native`').toBeDefined();
  });

  it('compiles without a warning', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'helper-build-')), 'mcp-roots-sandbox');
    try {
      execFileSync(compiler as string, [...CFLAGS, '-Werror', '-o', out, ...helperSources().filter((file: string) => file.endsWith('.c'))], { stdio: 'pipe' });
      expect(fs.statSync(out).size).toBeGreaterThan(0);
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  }, 120_000);
});
