// The layering lint, run through ESLint itself on code placed (virtually) in each folder.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: repoRoot });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'local/layering').map((message) => message.message);
}

describe('layering', () => {
  it.each([
    ['shared/x.ts', "import fs from 'node:fs'; export const a = fs;", /shared\/ may not import Node/],
    ['shared/x.ts', "import { RootsHost } from '../electron/host/roots-host.js'; export const a = RootsHost;", /shared\/ may not import electron\/host/],
    ['electron/host/x.ts', "import { useWith } from '../import/use-with.js'; export const a = useWith;", /electron\/host\/ may not import electron\/import/],
    ['electron/proxy/x.ts', "import { main } from '../cli/main.js'; export const a = main;", /electron\/proxy\/ may not import electron\/cli/],
    ['electron/import/x.ts', "import { runProxy } from '../proxy/run-proxy.js'; export const a = runProxy;", /electron\/import\/ may not import electron\/proxy/],
    ['electron/serve/x.ts', "import { app } from 'electron'; export const a = app;", /Only electron\/main and electron\/preload import electron/],
    ['renderer/src/x.ts', "import { dispatch } from '../../electron/host/contract-handlers.js'; export const a = dispatch;", /renderer\/ may not import electron\/host/],
    ['electron/preload/x.ts', "import fs from 'node:fs'; export const a = fs;", /electron\/preload\/ may not import Node/],
    ['electron/brand-new/x.ts', 'export const a = 1;', /without a layering rule/],
    // The host's rooms: only downwards, and none back up to the composition root.
    ['electron/host/registry/x.ts', "import { ServerConnection } from '../connections/server-connection.js'; export const a = ServerConnection;", /electron\/host\/registry\/ may not import electron\/host\/connections/],
    ['electron/host/launch/x.ts', "import { AppConnections } from '../connections/app-connections.js'; export const a = AppConnections;", /electron\/host\/launch\/ may not import electron\/host\/connections/],
    ['electron/host/sandbox/x.ts', "import { computeExposure } from '../access/exposure.js'; export const a = computeExposure;", /electron\/host\/sandbox\/ may not import electron\/host\/access/],
    ['electron/host/status/x.ts', "import { RootsHost } from '../roots-host.js'; export const a = RootsHost;", /electron\/host\/status\/ may not import electron\/host\//],
    ['electron/host/brand-new-room/x.ts', 'export const a = 1;', /without a layering rule/],
    // The proxy sees single modules of the host, never a room whole (#30 item 14): the roots-change
    // policy, the app's connections and the composition root only through the driver, or not at all.
    ['electron/proxy/x.ts', "import { decideRootsChange } from '../host/connections/roots-change-policy.js'; export const a = decideRootsChange;", /electron\/proxy\/ may not import electron\/host\/connections\/ \(electron\/host\/connections\/roots-change-policy\)/],
    ['electron/proxy/x.ts', "import { applyLiveGrants } from '../host/connections/live-grants.js'; export const a = applyLiveGrants;", /may not import electron\/host\/connections\/ \(electron\/host\/connections\/live-grants\)/],
    ['electron/proxy/x.ts', "import { ServerConnection } from '../host/connections/server-connection.js'; export const a = ServerConnection;", /may not import electron\/host\/connections\//],
    ['electron/proxy/x.ts', "import { RootsHost } from '../host/roots-host.js'; export const a = RootsHost;", /electron\/proxy\/ may not import electron\/host\/ \(electron\/host\/roots-host\)/],
    ['electron/proxy/x.ts', "import { RegistryModel } from '../host/registry/registry-model.js'; export const a = RegistryModel;", /may not import electron\/host\/registry\//],
    ['electron/proxy/x.ts', "export const a = () => import('../host/access/exposure.js');", /may not import electron\/host\/access\//],
  ])('%s: %s is refused', async (file, code, message) => {
    expect(await problems(file, code)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ['electron/proxy/x.ts', "import { RootsChangeDriver, type Exposure } from '../host/connections/roots-change-driver.js'; export const a: [typeof RootsChangeDriver, Exposure?] = [RootsChangeDriver];"],
    ['electron/proxy/x.ts', "import { prepareStart } from '../host/launch/stdio-start.js'; export const a = prepareStart;"],
    ['electron/host/connections/x.ts', "import { RegistryModel } from '../registry/registry-model.js'; import { planBwrap } from '../sandbox/bwrap-plan.js'; export const a = [RegistryModel, planBwrap];"],
    ['electron/host/x.ts', "import { buildHostState } from './status/host-state.js'; export const a = buildHostState;"],
    ['electron/main/x.ts', "import { app } from 'electron'; import { runProxy } from '../proxy/run-proxy.js'; export const a = [app, runProxy];"],
    ['shared/x.ts', "import { z } from 'zod'; export const a = z;"],
    ['tests/unit/x.test.ts', "import { app } from 'electron'; import fs from 'node:fs'; export const a = [app, fs];"],
  ])('%s: allowed', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });

  it("names each module the proxy may import, with why, and each exists", async () => {
    const { LAYERS } = (await import(pathToFileURL(path.join(repoRoot, 'eslint-layering.js')).href)) as { LAYERS: Record<string, { folders: string[]; modules?: Record<string, string> }> };
    const proxy = LAYERS['electron/proxy'];
    expect(proxy?.folders).toEqual(['shared']);
    const modules = Object.entries(proxy?.modules ?? {});
    expect(modules.map(([module]) => module)).toContain('electron/host/connections/roots-change-driver');
    for (const [module, why] of modules) {
      expect(fs.existsSync(path.join(repoRoot, `${module}.ts`)), module).toBe(true);
      expect(why.length, module).toBeGreaterThan(10);
    }
    // Of the roots-change logic, only the driver.
    expect(modules.map(([module]) => module).filter((module) => /roots-change|live-grants|roots-session|server-connection/.test(module))).toEqual(['electron/host/connections/roots-change-driver']);
  });

  it('refuses a table with a back arrow between folders', async () => {
    type Layers = Record<string, { folders: string[] } | 'any'>;
    const layering = (await import(pathToFileURL(path.join(repoRoot, 'eslint-layering.js')).href)) as { backArrows: (layers: object) => string[]; LAYERS: Layers };
    const { backArrows, LAYERS } = layering;
    expect(backArrows(LAYERS)).toEqual([]);
    const rule = { node: true, electron: false, react: false };
    expect(backArrows({ a: { ...rule, folders: ['b'] }, b: { ...rule, folders: ['c'] }, c: { ...rule, folders: ['a'] } })).toEqual(['a -> b -> c -> a']);
    // A single module allowed is an arrow to its folder too.
    expect(backArrows({ shared: { ...rule, folders: [], modules: { 'electron/host/connections/roots-change-driver': 'why' } }, 'electron/host/connections': { ...rule, folders: ['shared'] } })).toEqual([
      'shared -> electron/host/connections -> shared',
    ]);
  });
});
