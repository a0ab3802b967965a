// Twenty `mcp-roots proxy` processes started at once against one registry, the way Claude Desktop
// or Cursor starts its servers (issue #17): none may fail because another is reading or writing,
// each server sees exactly its own folders, and an edit that concerns one server reaches it alone.
//
// The servers are the light roots-stamp fixture (v1 SDK, follows its roots like server-filesystem),
// not server-filesystem itself: twenty of those plus twenty proxies run from source is more than a
// loaded 2-core CI machine does in reasonable time, and what is tested here is the proxies. The
// servers run in the OS sandbox where there is one (the default), so a grant restarts its server.
import { Client } from '@modelcontextprotocol/client';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { editRegistry } from '../support/host-harness.js';
import { removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const PROXY_ENTRY = path.join(repoRoot, 'electron/proxy/proxy-main.ts');
const FLEET = 20;
/** Twenty proxies through tsx on a loaded machine: minutes, not seconds, in the worst case. */
const START_MS = 240_000;

const stampServer: StdioTransportConfig = {
  type: 'stdio',
  command: process.execPath,
  args: [path.join(repoRoot, 'tests/fixtures/roots-stamp-server.mjs')],
  env: {},
};

interface Member {
  name: string;
  folders: string[];
  client: Client;
  stderr: () => string;
}

let configDir: string;
let spare: string[];
const fleet: Member[] = [];

/** What the server behind a proxy last got from roots/list (through the proxy, by its tool). */
async function rootsOf(member: Member): Promise<{ asked: number; uris: string[] | null }> {
  return JSON.parse(toolText(await member.client.callTool({ name: 'last-roots', arguments: {} }))) as { asked: number; uris: string[] | null };
}

const same = (uris: readonly string[] | null, folders: readonly string[]) =>
  uris !== null && JSON.stringify([...uris].sort()) === JSON.stringify(folders.map((folder) => pathToFileURL(folder).href).sort());

async function hasExactly(member: Member, folders: readonly string[], what: string): Promise<void> {
  await waitFor(async () => same((await rootsOf(member)).uris, folders), {
    what: `${member.name}: ${what} (proxy said: ${member.stderr().split('\n').slice(-4).join(' | ')})`,
    timeoutMs: START_MS,
    intervalMs: 100,
  });
}

function cli(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'electron/cli/main.ts'), '--config-dir', configDir, ...args], { cwd: repoRoot });
}

async function launch(name: string, folders: string[]): Promise<Member> {
  const transport = new InPlaceStdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', PROXY_ENTRY, '--config-dir', configDir, name],
    cwd: repoRoot,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A host without roots, as Claude Desktop is; a generous probe, since twenty start at once.
  const client = new Client({ name: 'fleet-host', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: 60_000 } } });
  await client.connect(transport);
  const member = { name, folders, client, stderr: () => stderr };
  fleet.push(member);
  return member;
}

beforeAll(async () => {
  configDir = tempDir('fleet-config-');
  const folders = Array.from({ length: FLEET * 2 + 2 }, (_, i) => tempDir(`fleet-${i}-`));
  spare = folders.slice(FLEET * 2);
  const plan = await editRegistry(configDir, async (editor) => {
    const { added } = await editor.addRoots(folders);
    const idOf = new Map(added.map((root) => [root.canonicalPath, root.id]));
    const servers: { name: string; folders: string[] }[] = [];
    for (let i = 0; i < FLEET; i++) {
      const name = `fleet-${i + 1}`;
      const own = folders.slice(i * 2, i * 2 + 2);
      const server = await editor.addServer({ name, transport: stampServer, enabled: true, sharing: true });
      await editor.setGrants([server.id], own.map((folder) => idOf.get(folder) as string), true);
      servers.push({ name, folders: own });
    }
    return servers;
  });
  // All at once: every connect is under way before the first one is awaited.
  const started = await Promise.allSettled(plan.map(({ name, folders: own }) => launch(name, own)));
  const failed = started.filter((outcome) => outcome.status === 'rejected');
  expect(failed.map((outcome) => String((outcome as PromiseRejectedResult).reason))).toEqual([]);
}, START_MS * 2);

afterAll(async () => {
  await Promise.all(fleet.splice(0).map(({ client }) => client.close().catch(() => undefined)));
  removeTempDirs();
});

describe('twenty proxies on one registry', () => {
  it('all twenty start at once and each server sees exactly its own folders', async () => {
    expect(fleet).toHaveLength(FLEET);
    await Promise.all(fleet.map((member) => hasExactly(member, member.folders, 'its folders at start')));
    // No proxy gave up on the registry (a lock, a read in progress): each one is still up and says so.
    for (const member of fleet) expect(member.stderr()).not.toMatch(/locked|could not start/i);
  }, START_MS);

  it('a CLI grant to one server reaches it; a revoke from another reaches that one; the rest keep theirs', async () => {
    const [first, second] = fleet as [Member, Member];
    await Promise.all(fleet.map((member) => hasExactly(member, member.folders, 'its folders before the edits')));
    await cli('grant', first.name, spare[0] as string);
    await hasExactly(first, [...first.folders, spare[0] as string], 'the CLI grant');
    await cli('revoke', second.name, second.folders[0] as string);
    await hasExactly(second, second.folders.slice(1), 'the CLI revoke');
    // Every other server still has exactly its own folders, and none was handed the new one.
    for (const member of fleet.slice(2)) expect(same((await rootsOf(member)).uris, member.folders)).toBe(true);
  }, START_MS);
});
