// Section 18: the record of what a server did in its grants (#29), as the person meets it. The app
// (a RootsHost with the UI's HTTP server, as `mcp-roots serve` runs it) is a process of its own
// (file-record-child.ts), so the bench's allocations are not in its memory: its memory before and
// after a confined server makes `writes` writes (one new file each) through its file view, after two
// full collections (what it keeps), and its resident memory's peak while they are recorded (read from
// /proc). Then, in Chromium, the first paint of "Changes by this server" over the record those writes
// left (10,000 entries and more: the record keeps the newest 10,000 and trims a fifth over). Needs
// the file view (FUSE), the built renderer (npm run build) and /usr/bin/chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { chromium } from 'playwright-core';
import { RegistryEditor } from '../../electron/host/registry/registry-commands.js';
import { readFileRecord } from '../../electron/host/sandbox/audit/file-record.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { benchDir, repoRoot } from './bench-env.js';
import { percentile, type Figure } from './figures.js';
import { waitFor } from '../support/wait-for.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MIB = 1024 * 1024;

/** Resident memory of a process, from /proc (bytes). */
function rssOf(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS for ${pid}`);
  return Number(line[1]) * 1024;
}

type Memory = { rss: number; heapUsed: number; external: number; arrayBuffers: number };

export async function fileRecordCost(writes: number, paints: number): Promise<Figure[]> {
  const support = await probeSandbox();
  if (support.kind !== 'bwrap' || !support.view?.available) {
    const why = support.kind !== 'bwrap' ? support.reason : support.view?.available === false ? support.view.reason : 'not probed';
    return [{ id: 'file-record-unavailable', label: `18. the file record not measured: ${why}`, value: 0, unit: 'count' }];
  }
  if (!fs.existsSync(path.join(repoRoot, 'dist/renderer/index.html'))) throw new Error('no built renderer: run npm run build first');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}`);

  const dataDir = benchDir('file-record-data');
  const project = benchDir('file-record-project');
  const editor = await RegistryEditor.open(dataDir);
  const { added } = await editor.addRoots([project]);
  const server = await editor.addServer({ name: 'writer', transport: { type: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'tests/fixtures/record-writer-server.mjs'), project, String(writes)], env: {} }, enabled: true, sharing: true, network: false });
  await editor.setGrants([server.id], [added[0]!.id], true, 'read-write');
  await editor.close();

  const child: ChildProcess = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(repoRoot, 'tests/bench/file-record-child.ts'), dataDir, path.join(repoRoot, 'dist/renderer')], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const answers: string[] = [];
    let err = '';
    readline.createInterface({ input: child.stdout! }).on('line', (line) => answers.push(line));
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const next = async <T>(what: string): Promise<T> => JSON.parse(await waitFor(() => answers.shift(), { what, timeoutMs: 90_000, intervalMs: 20, explain: () => err.slice(-600) })) as T;
    const ready = await next<{ url: string; serverId: string; grants?: string }>('the app ready, its server verified');
    if (ready.grants !== 'view') throw new Error(`the writer runs without its file view (${ready.grants})`);
    const measure = async () => (child.stdin!.write('measure\n'), next<Memory>('a measure'));
    const pid = child.pid!;

    // 10,000 writes through the view, each reported to the app and appended to the record.
    const before = await measure();
    let peak = rssOf(pid);
    const started = performance.now();
    fs.writeFileSync(path.join(project, 'go'), '');
    const last = path.join(project, 'w', `f${writes - 1}`);
    await waitFor(
      () => {
        peak = Math.max(peak, rssOf(pid));
        return fs.existsSync(path.join(project, 'done')) && readFileRecord(dataDir, server.id).some((entry) => entry.op === 'write' && entry.path === last);
      },
      { what: 'every write recorded', timeoutMs: 600_000, intervalMs: 100 },
    );
    const writeSeconds = (performance.now() - started) / 1000;
    const after = await measure();
    const entries = readFileRecord(dataDir, server.id).length;
    const url = ready.url;

    // The UI over that record: "Changes by this server" opened (the Servers tab shows the one server's detail).
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })).newPage();
    const navigated = performance.now();
    await page.goto(url);
    const panel = page.getByRole('region', { name: 'Changes by this server' });
    await page.getByRole('tab', { name: /Servers/ }).click();
    await panel.getByRole('listitem').first().waitFor({ timeout: 30_000 });
    const fromNavigation = performance.now() - navigated;
    const opens: number[] = [];
    for (let i = 0; i < paints; i++) {
      await page.getByRole('tab', { name: /History/ }).click();
      await panel.waitFor({ state: 'detached' });
      const clicked = performance.now();
      await page.getByRole('tab', { name: /Servers/ }).click();
      await panel.getByRole('listitem').first().waitFor({ timeout: 30_000 });
      opens.push(performance.now() - clicked);
    }
    const rows = await panel.getByRole('listitem').count();
    const mib = (bytes: number) => (bytes / MIB).toFixed(1);
    return [
      {
        id: 'file-record-rss-growth',
        label: `18. the app's resident memory after ${writes.toLocaleString('en')} recorded writes - before (each after a full GC)`,
        value: (after.rss - before.rss) / MIB,
        unit: 'MB',
        budget: { max: 10, text: '<= 10 MiB' },
        note: `MiB; RSS ${mib(before.rss)} -> ${mib(after.rss)}; JS heap used ${mib(before.heapUsed)} -> ${mib(after.heapUsed)}; external ${mib(before.external)} -> ${mib(after.external)}; the writes took ${writeSeconds.toFixed(1)} s; the record holds ${entries} entries`,
      },
      { id: 'file-record-heap-growth', label: '18. ... its JS heap used, after - before (each after a full GC)', value: (after.heapUsed - before.heapUsed) / MIB, unit: 'MB', note: 'MiB' },
      { id: 'file-record-rss-peak', label: '18. ... its resident memory at its peak while recording - before', value: (peak - before.rss) / MIB, unit: 'MB', note: `MiB; read from /proc every 100 ms; peak ${mib(peak)}` },
      {
        id: 'file-record-open-p50',
        label: `18. "Changes by this server" opened over ${entries.toLocaleString('en')} entries -> first row painted, p50 of ${paints}`,
        value: percentile(opens, 50),
        unit: 'ms',
        budget: { max: 500, text: '< 500 ms' },
        note: `worst ${Math.max(...opens).toFixed(0)} ms; from the page's navigation (the app's own load included) ${fromNavigation.toFixed(0)} ms; ${rows} rows drawn (at most 500); each time includes the host reading the record and Playwright's round trips`,
      },
      { id: 'file-record-open-navigation', label: '18. ... from navigation to the first row painted', value: fromNavigation, unit: 'ms' },
    ];
  } finally {
    await browser.close();
    child.stdin?.write('stop\n');
    const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}
