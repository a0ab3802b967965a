// What the UI tests ask of real servers and of the page: who sees what, and is the page accessible.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { RootsHost } from '../../electron/host/roots-host.js';
import { expect } from 'vitest';
import { allowedDirectories, toolText, waitFor } from '../support/index.js';
import { screenshot } from './ui-harness.js';

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
  // And a frame drawn after it: the page as a person sees it, not mid-way through the switch.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The window sizes every screen is looked at in. */
export const SCREEN_SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
] as const;

export interface LookOptions {
  /** Sizes to look in (named `<name>-<w>x<h>-<scheme>`); none: the window as it is (`<name>-<scheme>`). */
  sizes?: readonly { width: number; height: number }[];
  /** Brings what the screen is about into view after each change of size or scheme. */
  inView?: () => Promise<void>;
  /** Screenshots only, no axe scan (a state already scanned elsewhere). */
  noAxe?: boolean;
}

/**
 * Looks at one state of the page the way every screen is checked: a screenshot in the light and the
 * dark scheme (in each size, when given), and no serious or critical axe finding in any of them.
 * Leaves the page light, and at 1280x800 when it changed sizes.
 */
export async function lookEverywhere(page: Page, name: string, options: LookOptions = {}): Promise<void> {
  for (const size of options.sizes ?? [undefined]) {
    if (size) await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await showScheme(page, scheme);
      await options.inView?.();
      const label = size ? `${name}-${size.width}x${size.height}-${scheme}` : `${name}-${scheme}`;
      await screenshot(page, label);
      if (options.noAxe) continue;
      const serious = seriousOnly(await axeViolations(page));
      expect(serious, `${label}:\n${describeViolations(serious)}`).toEqual([]);
    }
  }
  await showScheme(page, 'light');
  if (options.sizes) await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * A matrix cell's accessible name: "Share <root> with <server>", then the mode once it is granted
 * (": read-write", ": read-only", ...). Anchored, so server-1 does not also find server-10.
 */
export function cellName(root: string, server: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^Share ${escape(root)} with ${escape(server)}(: .+)?$`);
}
