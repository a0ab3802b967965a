// What the UI tests ask of real servers and of the page: who sees what, and is the page accessible.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { RootsHost } from '../../electron/host/roots-host.js';
import { allowedDirectories, toolText, waitFor } from '../support/index.js';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** server-filesystem's own list of the directories it may use. */
export async function filesystemSees(host: RootsHost, serverId: string): Promise<string[]> {
  return allowedDirectories(toolText(await host.callTool(serverId, 'list_allowed_directories')));
}

/** server-everything's echo of the roots it holds. */
export async function everythingSees(host: RootsHost, serverId: string): Promise<string[]> {
  const text = toolText(await host.callTool(serverId, 'get-roots-list'));
  return [...text.matchAll(/file:\/\/[^\s)"]+/g)].map((match) => match[0]);
}

export async function waitConnected(host: RootsHost, serverId: string): Promise<void> {
  await waitFor(() => host.getState().servers.find((server) => server.id === serverId)?.status.state === 'connected', {
    what: `server ${serverId} to connect`,
    timeoutMs: 20_000,
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core in the page. Injected through the DevTools protocol (page.evaluate), not a <script>
 * tag, so the app's strict CSP stays on while it is scanned.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }).axe;
    const outcome = await axe.run(document, { resultTypes: ['violations'] });
    return JSON.parse(JSON.stringify(outcome.violations)) as unknown;
  });
  return result as AxeViolation[];
}

export function seriousOnly(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.slice(0, 5).map((n) => `   ${n.target.join(' ')} — ${n.failureSummary ?? ''}`).join('\n')}`)
    .join('\n');
}

/**
 * Shows the page in one colour scheme and waits until it is drawn in it: the app follows the OS
 * scheme by setting `data-theme` on the root element (the theme setting is "system" in tests).
 */
export async function showScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dataset.theme)) === scheme, { what: `the ${scheme} theme` });
}
