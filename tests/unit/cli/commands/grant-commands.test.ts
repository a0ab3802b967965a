import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../../../electron/cli/registry-view.js';
import { runMain } from '../../../support/cli-in-process.js';
import { removeTempDirs, tempDir } from '../../../support/temp-dirs.js';

let configDir: string;
let home: string;
const cli = (...args: string[]) => runMain(['--config-dir', configDir, ...args], { cwd: home, home });
const status = async () => JSON.parse((await cli('status', '--json')).stdout) as StatusReport;

beforeEach(async () => {
  configDir = tempDir('config-');
  home = tempDir('home-');
  for (const folder of ['a/src', 'b/src', 'docs']) fs.mkdirSync(path.join(home, folder), { recursive: true });
  await cli('roots', 'add', '~/a/src', '~/b/src', '~/docs');
  await cli('servers', 'add', 'fs', '--', 'node', 'server.js');
});
afterEach(removeTempDirs);

describe('grant and revoke', () => {
  it('say what changed and what already was so', async () => {
    expect((await cli('grant', 'fs', 'a/src', 'docs')).stdout).toBe('granted a/src, docs to fs (read-only)\n');
    expect((await cli('grant', 'fs', 'docs', 'b/src')).stdout).toBe('granted b/src to fs (read-only)\nfs already had docs (read-only)\n');
    expect((await cli('revoke', 'fs', 'docs')).stdout).toBe('revoked docs from fs\n');
    const never = await cli('revoke', 'fs', 'docs');
    expect(never).toMatchObject({ code: 0, stdout: 'fs was not granted docs: nothing to revoke there\n' });
    const report = await status();
    expect(report.servers[0]?.grantedRootIds).toEqual(report.roots.filter((root) => root.name === 'src').map((root) => root.id));
  });

  it('give a grant a mode (read-only unless told: least privilege), say when a mode changes, and keep a mode when none is named', async () => {
    expect((await cli('grant', 'fs', 'docs')).stdout).toBe('granted docs to fs (read-only)\n');
    expect((await cli('grant', 'fs', 'docs')).stdout).toBe('fs already had docs (read-only)\n');
    expect((await cli('grant', 'fs', 'docs', 'a/src', '--read-write')).stdout).toBe('granted a/src to fs (read-write)\nfs now has docs read-write (was read-only)\n');
    expect((await cli('grant', 'fs', 'a/src')).stdout).toBe('fs already had a/src (read-write)\n');
    expect((await cli('grant', 'fs', 'docs', '--read-only', '--read-write')).code).toBe(2);
    const report = await status();
    expect(report.servers[0]?.readOnlyRootIds).toEqual([]);
    await cli('grant', 'fs', 'a/src', '--read-only');
    // Each folder says its own mode: "a, b (read-only)" was read as both read-only.
    expect((await cli('status')).stdout).toContain('granted: a/src (read-only), docs (read-write)');
  });

  it('report the same in JSON', async () => {
    await cli('grant', 'fs', 'docs');
    const { roots } = await status();
    const docs = roots.find((root) => root.name === 'docs')?.id;
    const result = JSON.parse((await cli('revoke', 'fs', 'docs', 'a/src', '--json')).stdout) as Record<string, unknown>;
    expect(result).toEqual({ server: expect.any(String), revoked: [docs], notGranted: [roots[0]?.id] });
  });

  it('refuse a name that fits several roots, listing them with short ids, and change nothing', async () => {
    const result = await cli('grant', 'fs', 'src');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mcp-roots: "src" matches 2 roots; name one by its short id or path:\n {2}[0-9a-f]{6} {2}a\/src {2}\/.*\/a\/src\n {2}[0-9a-f]{6} {2}b\/src {2}\/.*\/b\/src\n$/);
    expect((await status()).servers[0]?.grantedRootIds).toEqual([]);
  });

  it('say when a grant does not reach the server yet, and why', async () => {
    await cli('servers', 'set', 'fs', '--sharing', 'off');
    expect((await cli('grant', 'fs', 'docs')).stdout).toBe('granted docs to fs (read-only)\nfs has sharing off: it sees them once sharing is on (mcp-roots servers set fs --sharing on)\n');
    await cli('servers', 'set', 'fs', '--sharing', 'on');
    fs.rmSync(path.join(home, 'a/src'), { recursive: true });
    expect((await cli('grant', 'fs', 'a/src')).stdout).toBe('granted a/src to fs (read-only)\nnot reachable now, so hidden from fs until they are: src (missing)\n');
  });
});

describe('a sensitive folder', () => {
  it('is granted only with --yes, after saying what is at stake; nothing changes meanwhile', async () => {
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    expect((await cli('roots', 'add', '~', path.join(home, '.ssh'))).code).toBe(0);
    const refused = await cli('grant', 'fs', '~', '--read-write');
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain(`not granted, to be sure: ${home}: it is your home folder, or holds it: every project, key and token in it would be open to the server.`);
    expect(refused.stderr).toContain("To grant it anyway: mcp-roots grant fs '~' --read-write --yes");
    expect((await status()).servers[0]?.grantedRootIds).toEqual([]);
    expect((await cli('grant', 'fs', '.ssh')).stderr).toContain('it holds keys or credentials');
    const granted = await cli('grant', 'fs', '~', '--yes');
    expect(granted).toMatchObject({ code: 0, stdout: expect.stringMatching(/^granted .* to fs \(read-only\)/) });
    // Widening it later is asked again; an ordinary folder never is.
    expect((await cli('grant', 'fs', '~', '--read-write')).code).toBe(1);
    expect((await cli('grant', 'fs', 'docs', '--read-write')).code).toBe(0);
  });
});

describe('a sensitive folder at a terminal', () => {
  const atTerminal = (input: string, ...args: string[]) => runMain(['--config-dir', configDir, ...args], { cwd: home, home, tty: true, input });

  it('is asked for after what is at stake, and no is taken for an answer', async () => {
    expect((await cli('roots', 'add', '~')).code).toBe(0);
    const declined = await atTerminal('n\n', 'grant', 'fs', '~');
    expect(declined).toMatchObject({ code: 0, stderr: 'not granted: nothing changed.\n' });
    expect(declined.stdout).toBe(`A sensitive folder: ${home}: it is your home folder, or holds it: every project, key and token in it would be open to the server.\nGrant it anyway? [y/N] `);
    expect((await status()).servers[0]?.grantedRootIds).toEqual([]);
    // No answer at all (the input ends) is no.
    expect((await atTerminal('', 'grant', 'fs', '~')).stderr).toBe('not granted: nothing changed.\n');
    expect((await status()).servers[0]?.grantedRootIds).toHaveLength(0);
    const accepted = await atTerminal('y\n', 'grant', 'fs', '~');
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/Grant it anyway\? \[y\/N\] granted .* to fs \(read-only\)\n$/);
    expect((await status()).servers[0]?.grantedRootIds).toHaveLength(1);
  });

  it('is not asked with --json (the question would break the output) nor for an ordinary folder', async () => {
    expect((await cli('roots', 'add', '~')).code).toBe(0);
    const json = await atTerminal('y\n', 'grant', 'fs', '~', '--json');
    expect(json).toMatchObject({ code: 1, stdout: '' });
    expect(json.stderr).toContain('To grant it anyway');
    const ordinary = await atTerminal('', 'grant', 'fs', 'docs');
    expect(ordinary).toMatchObject({ code: 0, stdout: 'granted docs to fs (read-only)\n' });
  });
});

describe('status', () => {
  it('shows short ids, labels that tell folders apart, and why a granted folder is hidden', async () => {
    await cli('grant', 'fs', 'a/src', 'b/src');
    fs.rmSync(path.join(home, 'b/src'), { recursive: true });
    const text = (await cli('status')).stdout;
    expect(text).toMatch(/^Registry: .*config\.json$/m);
    expect(text).toMatch(/^ {2}[0-9a-f]{6} {2}a\/src {2}ok {7}\/.*\/a\/src$/m);
    expect(text).toMatch(/^ {2}[0-9a-f]{6} {2}b\/src {2}missing {2}\/.*\/b\/src {2}\(.+\)$/m);
    expect(text).toMatch(/^ {2}[0-9a-f]{6} {2}fs {2}enabled, sharing {2}state unknown$/m);
    expect(text).toContain('granted: a/src (read-only), b/src (read-only, hidden: missing)');
  });
});
