// A network-on server's allowed hosts (issue #28), enforced in its own network namespace: an
// allowed name is reached and another refused (for a client that ignores HTTP_PROXY: Node's own
// net.connect), a hard-coded address is refused, the record lists each attempt, and a change of the
// list reaches the running server live. In a network world of the test's own (egress-world.sh: a
// namespace with its own link and "remote" addresses, the tests' resolver), through confineStdio,
// the app and the proxy, as root and as nobody.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { confineStdio } from '../../electron/host/sandbox/confine-stdio.js';
import { anyPathServer } from '../support/confined-client.js';
import { removeTempDirs, tempDir } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const asRoot = process.getuid?.() === 0;
const privateNetwork = support.kind === 'bwrap' && support.privateNetwork?.pasta !== undefined;

afterEach(() => removeTempDirs());

/** Runs the world (made as root in a network namespace of its own) in one mode; its facts. */
async function world(mode: 'confine' | 'app' | 'proxy', runAs?: 'nobody'): Promise<Record<string, unknown>> {
  const dataDir = tempDir('egress-world-');
  if (runAs) fs.chmodSync(dataDir, 0o777);
  const { stdout } = await promisify(execFile)('unshare', ['-n', 'sh', 'tests/fixtures/egress-world.sh', dataDir, mode], {
    cwd: repoRoot,
    env: { ...process.env, ...(runAs ? { RUN_AS: runAs } : {}) },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}

const refusedName = /^ERROR (EAI_AGAIN|ENOTFOUND)/;

function expectEnforced(facts: Record<string, unknown>): void {
  expect(facts).toMatchObject({
    allowed: 'connected',
    other: expect.stringMatching(refusedName),
    bareAddress: expect.stringMatching(/^ERROR ECONNREFUSED/),
    otherByAddress: expect.stringMatching(/^ERROR ECONNREFUSED/),
    verified: true,
    otherAfterAllow: 'connected',
    allowedAfterEmpty: expect.stringMatching(/^ERROR ECONNREFUSED/),
    lookupAfterEmpty: expect.stringMatching(refusedName),
  });
  expect(facts.selfCheck).toContain('outbound to its allowed hosts only (allowed.test): nftables rules in its namespace (checked)');
  const record = facts.record as string[];
  for (const row of ['lookup allowed.test allowed', 'lookup other.test refused', 'lookup other.test allowed']) expect(record).toContain(row);
  for (const refused of [/^connect 198\.18\.0\.4:\d+\/tcp refused$/, /^connect 198\.18\.0\.3:\d+\/tcp refused$/, /^connect 198\.18\.0\.2:\d+\/tcp allowed$/]) expect(record.some((row) => refused.test(row))).toBe(true);
  const lines = facts.refusedLines as string[];
  expect(lines).toContain("refused other.test (A): not in guarded server's allowed hosts; allow it with: mcp-roots servers set 'guarded server' --allow-host other.test");
  // Once per destination, however often it was tried.
  expect(lines.filter((line) => line.startsWith('refused 198.18.0.4:'))).toHaveLength(1);
}

describe.runIf(privateNetwork && asRoot)('allowed hosts, enforced in the server\'s own network namespace', () => {
  it('through confineStdio: the allowed name reached, another name and bare addresses refused, a live change, and the record', async () => {
    expectEnforced(await world('confine'));
  }, 90_000);

  it('through the app: a list set by the person restarts it into its rules, another list reaches it live, refusals in its activity', async () => {
    const facts = await world('app');
    expect(facts).toMatchObject({ other: expect.stringMatching(refusedName), bareAddress: expect.stringMatching(/^ERROR ECONNREFUSED/), samePid: true });
    const activity = facts.activity as string[];
    expect(activity).toContain('Its network limited to its allowed hosts, from this app.');
    expect(activity).toContain('Its allowed hosts changed: applied live, without a restart.');
    expect(activity.some((line) => line.startsWith("Network: refused other.test (A): not in guarded app's allowed hosts"))).toBe(true);
    expect((facts.record as string[]).some((row) => /^connect 198\.18\.0\.4:\d+\/tcp refused$/.test(row))).toBe(true);
    expect(facts.recordAfterRestart).toEqual(expect.arrayContaining(facts.record as string[]));
  }, 120_000);

  it("through the proxy: the registry's list, one line per refused destination on its stderr, a live change", async () => {
    const facts = await world('proxy');
    expect(facts).toMatchObject({ allowed: 'connected', other: expect.stringMatching(refusedName), bareAddress: expect.stringMatching(/^ERROR ECONNREFUSED/) });
    const stderr = facts.stderr as string[];
    expect(stderr).toContain("mcp-roots: refused other.test (A): not in guarded proxy's allowed hosts; allow it with: mcp-roots servers set 'guarded proxy' --allow-host other.test");
    expect(stderr.some((line) => line.includes('its allowed hosts changed: applied live, without a restart (allowed.test, other.test)'))).toBe(true);
    expect(stderr.filter((line) => /refused 198\.18\.0\.4:/.test(line))).toHaveLength(1);
  }, 120_000);

  it('as nobody: the same rules where pasta works for that user, and the reason where it does not', async () => {
    const facts = await world('confine', 'nobody');
    expect(facts.uid).toBe(65534);
    if (facts.privateNetwork) expectEnforced(facts);
    // Here /dev/net/tun is root's only (Debian's default is 0666): pasta cannot run for nobody, and
    // a server with a list of allowed hosts is then not started at all (the test below).
    else expect(facts.reason).toMatch(/tun/);
  }, 90_000);
});

describe.runIf(support.kind === 'bwrap')('where the list cannot be enforced', () => {
  it('a server with a list of allowed hosts is not started, with the reason and the ways out, never with any host', async () => {
    const withoutPasta = { ...support, privateNetwork: { reason: 'pasta (package "passt") is not installed' } };
    const start = confineStdio(anyPathServer(), { serverId: 'unenforced', roots: [], dataDir: tempDir('egress-none-'), network: true, allowHosts: ['allowed.test'], support: withoutPasta });
    await expect(start).rejects.toMatchObject({ code: 'network-policy-unavailable', message: expect.stringContaining('pasta (package "passt") is not installed') });
    await expect(start).rejects.toThrow(/turn its network off, allow any host \(mcp-roots servers set NAME --allow-any-host\)/);
  });
});
