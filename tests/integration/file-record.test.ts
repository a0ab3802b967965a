// What a server did in its grants (issue #29): its file view records each operation, done or refused
// with its rule, off the server's path; `mcp-roots audit` lists them and their net changes. A server
// that creates, edits, renames and deletes files, through confineStdio, the app and the proxy, as
// root and as nobody (tests/fixtures/file-record-world.ts).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { fileRecordFiles, readFileRecord } from '../../electron/host/sandbox/audit/file-record.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { runCli } from '../support/cli.js';
import { anyPathServer } from '../support/confined-client.js';
import { addConnectedServer, callText, dispatch, editRegistry, startHost, stopHosts } from '../support/host-harness.js';
import { closeProxiedClients, proxiedClient } from '../support/proxied-client.js';
import { openFuseDevice, removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const isRoot = process.getuid?.() === 0;

afterEach(async () => {
  await closeProxiedClients();
  await stopHosts();
  removeTempDirs();
});

async function world(mode: 'confine' | 'app' | 'proxy', as: 'self' | 'nobody'): Promise<{ base: string; facts: Record<string, unknown> }> {
  const base = tempDir(`file-record-${mode}-`);
  fs.chmodSync(base, 0o777);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: base };
  // Debian's /dev/fuse is 0666; where it is root's only (here), the test opens it for nobody.
  if (as === 'nobody') env.MCP_ROOTS_FUSE_DEVICE = openFuseDevice();
  const node = [process.execPath, '--import', 'tsx', 'tests/fixtures/file-record-world.ts', base, mode];
  const [command, args] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...node]] : [node[0] as string, node.slice(1)];
  const { stdout } = await promisify(execFile)(command, args as string[], { cwd: repoRoot, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
  return { base, facts: JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown> };
}

/** Exactly the operations the server made, in order, the refused ones with their rule. */
const EXPECTED = [
  { op: 'create', path: 'project/draft.txt' },
  { op: 'write', path: 'project/draft.txt', bytes: 5 },
  { op: 'write', path: 'project/notes.txt', bytes: 12 },
  { op: 'rename', path: 'project/draft.txt', to: 'project/final.txt' },
  { op: 'delete', path: 'project/old.txt' },
  { op: 'truncate', path: 'docs/readme.md', bytes: 0, rule: 'read-only grant' },
  { op: 'mkdir', path: 'project/.git', rule: 'protected name' },
];

function expectRecorded(facts: Record<string, unknown>): void {
  const done = facts.done as Record<string, string>;
  expect(done).toMatchObject({ create: 'written', edit: 'appended', rename: 'renamed', remove: 'removed', read: '# docs\n' });
  expect(done.readOnly).toMatch(/EROFS/);
  expect(done.protected).toMatch(/EROFS/);
  const record = facts.record as { op: string; path: string }[];
  // The write of the draft is told before its rename (under the name it was made by); the edit's
  // bytes are summed over a quarter second, so it may come just before or after the rename.
  expect(record).toEqual(expect.arrayContaining(EXPECTED));
  expect(record).toHaveLength(EXPECTED.length);
  const order = (op: string, file: string) => record.findIndex((entry) => entry.op === op && entry.path === file);
  expect(order('create', 'project/draft.txt')).toBeLessThan(order('write', 'project/draft.txt'));
  expect(order('write', 'project/draft.txt')).toBeLessThan(order('rename', 'project/draft.txt'));
  expect(facts.reads).toEqual(['docs/readme.md']);
  // The view kept each file's content before the server's first change: the diffs.
  expect(facts.diff).toEqual(['same first line', 'added second line']);
  expect(facts.removedDiff).toEqual(['removed to be removed']);
  // Only a path its record names: nothing else can be read this way.
  expect(facts.outsideDiff).toBe('not-recorded');
}

const users = isRoot ? (['self', 'nobody'] as const) : (['self'] as const);

describe.runIf(support.kind === 'bwrap' && support.view?.available)('the record of what a server did in its grants', () => {
  for (const as of users) {
    const who = as === 'nobody' ? 'as nobody' : isRoot ? 'as root' : 'as this user';
    it(`through confineStdio, ${who}: each operation, the refused ones with their rule, reads summed per file`, async () => {
      const { facts } = await world('confine', as);
      if (as === 'nobody') expect(facts.uid).toBe(65534);
      expectRecorded(facts);
    }, 120_000);

    it(`through the app, ${who}: the record, and "Changes by this server" as the host answers it, before and after the app restarts`, async () => {
      const { facts } = await world('app', as);
      expectRecorded(facts);
      const changes = facts.changes as { changes: { path: string; change: string; from?: string }[]; refused: { rule: string }[]; filesRead: number };
      expect(changes.changes.map((change) => [path.basename(change.path), change.change])).toEqual(
        expect.arrayContaining([
          ['final.txt', 'created'],
          ['notes.txt', 'modified'],
          ['old.txt', 'deleted'],
        ]),
      );
      expect(changes.changes).toHaveLength(3);
      expect(changes.refused.map((entry) => entry.rule)).toEqual(['read-only grant', 'protected name']);
      expect(changes.filesRead).toBe(1);
      // A restart of the app keeps the record: the same changes, refusals and reads.
      expect(facts.changesAfterRestart).toEqual(facts.changes);
    }, 120_000);

    it(`through the proxy, ${who}: the record; mcp-roots audit prints it, as JSON and as net changes`, async () => {
      const { base, facts } = await world('proxy', as);
      expectRecorded(facts);
      const dataDir = path.join(base, 'data');
      const json = await runCli(['--config-dir', dataDir, 'audit', 'recorded proxy', '--json']);
      expect(json.code, json.stderr).toBe(0);
      const listed = JSON.parse(json.stdout) as { time: string; op: string; path: string; rule?: string }[];
      expect(listed.map((entry) => entry.op)).toEqual((facts.record as { op: string }[]).map((entry) => entry.op));
      expect(listed.every((entry) => !Number.isNaN(Date.parse(entry.time)))).toBe(true);
      expect(listed.find((entry) => entry.op === 'mkdir')?.rule).toBe('protected name');
      const net = await runCli(['--config-dir', dataDir, 'audit', 'recorded proxy', '--changes']);
      const lines = net.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('recorded proxy: net changes');
      // In the order of each path's last operation: the edit's bytes are summed over a quarter second.
      expect(lines.slice(1).sort()).toEqual(
        [`  created   ${path.join(base, 'project/final.txt')}`, `  deleted   ${path.join(base, 'project/old.txt')}`, `  modified  ${path.join(base, 'project/notes.txt')}`].sort(),
      );
    }, 120_000);
  }
});

describe.runIf(support.kind === 'bwrap' && support.view?.available)("the record's bounds are settings", () => {
  it('a running server is trimmed to the setting once it changes; a bad value is refused with why, and cuts nothing', async () => {
    const configDir = tempDir('file-record-bounds-');
    const project = tempDir('file-record-bounds-project-');
    const host = await startHost({ configDir });
    const rootId = (await host.addRoots([project])).added[0]!.id;
    const serverId = await addConnectedServer(host, 'bounded', anyPathServer());
    // 150 entries already kept (this minute's: no age bound takes them), as a previous run left them.
    const file = fileRecordFiles(configDir, serverId).entries;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const now = Date.now();
    fs.writeFileSync(file, Array.from({ length: 150 }, (_, i) => JSON.stringify({ time: now - 60_000 + i, op: 'create', path: `/seed/${i}` })).join('\n') + '\n');
    await host.setGrants([serverId], [rootId], true, 'read-write');
    const write = async (name: string) => {
      await waitFor(async () => (await callText(host, serverId, 'write', { path: path.join(project, name), content: name }).catch(() => '')) === 'written', { what: `${name} written`, timeoutMs: 30_000 });
      await waitFor(() => readFileRecord(configDir, serverId).some((entry) => entry.path === path.join(project, name)), { what: `${name} recorded`, timeoutMs: 30_000 });
    };

    // The defaults (10,000 entries, 30 days): all 150 stay.
    await write('a.txt');
    expect(readFileRecord(configDir, serverId).length).toBeGreaterThan(150);

    // Set to 100 while it runs: its next entries trim the record to the newest 100.
    expect(await dispatch(host, 'settings.update', { recordEntries: 100 })).toEqual({ ok: true, value: null });
    await write('b.txt');
    const trimmed = readFileRecord(configDir, serverId);
    expect(trimmed).toHaveLength(100);
    expect(trimmed.at(-1)?.path.startsWith(path.join(project, 'b.txt'))).toBe(true);
    expect(trimmed.some((entry) => entry.path === '/seed/0')).toBe(false);

    // A value out of range is refused with its range, the setting stays, and the record loses nothing.
    for (const bad of [5, 100_001, 2.5, -1]) {
      const refused = await dispatch(host, 'settings.update', { recordEntries: bad });
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
      expect(refused.ok ? '' : refused.error.message).toContain('The entries kept per server must be a whole number from 100 to 100000');
    }
    const badDays = await dispatch(host, 'settings.update', { recordDays: 0 });
    expect(badDays.ok ? '' : badDays.error.message).toContain('The days kept must be a whole number from 1 to 365');
    expect(host.getState().settings).toMatchObject({ recordEntries: 100 });
    expect(host.getState().settings.recordDays).toBeUndefined();
    const onDisk = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { settings: Record<string, unknown> };
    expect(onDisk.settings).toMatchObject({ recordEntries: 100 });
    await write('c.txt');
    expect(readFileRecord(configDir, serverId).length).toBeGreaterThanOrEqual(100);
  }, 120_000);

  it("through the proxy: its server's record is trimmed to the settings the registry holds", async () => {
    const configDir = tempDir('file-record-bounds-proxy-');
    const project = tempDir('file-record-bounds-project-');
    const serverId = await editRegistry(configDir, async (editor) => {
      const server = await editor.addServer({ name: 'bounded proxy', transport: anyPathServer(), enabled: true, sharing: true, sandbox: true, network: false });
      const { added } = await editor.addRoots([project]);
      await editor.setGrants([server.id], [added[0]!.id], true, 'read-write');
      await editor.updateSettings({ recordEntries: 100 });
      return server.id;
    });
    const file = fileRecordFiles(configDir, serverId).entries;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const now = Date.now();
    fs.writeFileSync(file, Array.from({ length: 150 }, (_, i) => JSON.stringify({ time: now - 60_000 + i, op: 'create', path: `/seed/${i}` })).join('\n') + '\n');
    const client = await proxiedClient(configDir, 'bounded proxy');
    expect(toolText(await client.callTool({ name: 'write', arguments: { path: path.join(project, 'p.txt'), content: 'p' } }))).toBe('written');
    await waitFor(() => readFileRecord(configDir, serverId).some((entry) => entry.path === path.join(project, 'p.txt')), { what: 'p.txt recorded', timeoutMs: 30_000 });
    const kept = readFileRecord(configDir, serverId);
    expect(kept).toHaveLength(100);
    expect(kept.some((entry) => entry.path === '/seed/0')).toBe(false);
  }, 120_000);
});
