// The preload really builds to one CommonJS file that a sandboxed renderer can load: it requires
// nothing but 'electron', carries the contract's names, and not zod.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { channels, eventNames } from '../../../shared/contract.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

const root = path.resolve(import.meta.dirname, '../../..');
let code: string;

beforeAll(async () => {
  const outDir = tempDir('mcp-roots-preload-');
  await build({ configFile: path.join(root, 'vite.preload.config.ts'), root, logLevel: 'silent', build: { outDir } });
  code = fs.readFileSync(path.join(outDir, 'index.cjs'), 'utf8');
}, 60_000);

afterAll(() => removeTempDirs());

describe('the bundled preload (dist/preload/index.cjs)', () => {
  it('requires only electron', () => {
    const required = [...code.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((match) => match[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('carries every channel and event name, and no zod', () => {
    for (const name of [...channels, ...eventNames]) expect(code).toContain(JSON.stringify(name));
    expect(code).not.toMatch(/zod|safeParse|ZodError/);
    expect(code.length).toBeLessThan(20_000);
  });

  it('exposes rootsManager and never ipcRenderer itself', () => {
    expect(code).toContain('exposeInMainWorld("rootsManager"');
    expect(code).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
  });
});
