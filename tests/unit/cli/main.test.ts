// The conventions of gh and docker: help per command, --version, "did you mean", one-line usage
// errors with a pointer to --help, and the documented exit codes (0 ok, 1 failure, 2 usage).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runMain } from '../../support/cli-in-process.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

afterEach(removeTempDirs);

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

describe('mcp-roots conventions', () => {
  it('--version prints the version', async () => {
    expect(await runMain(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('`help CMD` and `CMD --help` show that command\'s help', async () => {
    const viaHelp = await runMain(['help', 'servers', 'add']);
    const viaFlag = await runMain(['servers', 'add', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: mcp-roots servers add NAME \[options\] -- COMMAND \[ARG\.\.\.\]/);
    expect(viaHelp.stdout).toContain('--arg <arg>');
    expect(viaFlag).toEqual(viaHelp);
    expect((await runMain(['help', 'grant'])).stdout).toMatch(/^Usage: mcp-roots grant \[options\] <server> <root\.\.\.>/);
    const top = await runMain(['help']);
    expect(top.stdout).toContain('Exit codes: 0 ok, 1 failure');
    expect(await runMain(['--help'])).toEqual(top);
  });

  it('suggests the command meant, in one line and a pointer to --help, exit 2', async () => {
    expect(await runMain(['servres'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "mcp-roots: unknown command 'servres' (did you mean servers?)\nRun 'mcp-roots --help' for usage.\n",
    });
    expect((await runMain(['servers', 'lsit'])).stderr).toBe("mcp-roots: unknown command 'lsit' (did you mean list?)\nRun 'mcp-roots servers --help' for usage.\n");
    expect((await runMain(['help', 'stauts'])).stderr).toBe("mcp-roots: unknown command 'stauts' (did you mean status?)\nRun 'mcp-roots --help' for usage.\n");
  });

  it('prints a usage error as one line plus where to look, never the whole help', async () => {
    const configDir = tempDir('main-config-');
    for (const args of [
      ['servers', 'add', 'x', '--arg'],
      ['servers', 'add', 'x', '--bogus'],
      ['servers', 'add'],
      ['servers', 'add', 'x'],
      ['servers', 'add', 'x', '--command', 'a', '--', 'b'],
      ['grant', 'fs'],
      ['completion', 'tcsh'],
      ['status', 'extra'],
    ]) {
      const result = await runMain(['--config-dir', configDir, ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, args.join(' ')).toHaveLength(2);
      expect(lines[0], args.join(' ')).toMatch(/^mcp-roots: /);
      expect(lines[1], args.join(' ')).toMatch(/^Run 'mcp-roots [a-z -]+--help' for usage\.$/);
      // No parser internals: node:util's wording, stack traces or error class names.
      expect(result.stderr, args.join(' ')).not.toMatch(/ambiguous|ERR_|TypeError|at .*\.js:\d+/);
    }
  });

  it('exits 1 when the command line was right but the work failed', async () => {
    const configDir = tempDir('main-config-');
    const result = await runMain(['--config-dir', configDir, 'grant', 'nobody', '/tmp']);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe('mcp-roots: No server matches "nobody" (see: mcp-roots servers list).\n');
  });

  it('a server name that is taken gets the next step, quoted for pasting (#30 item 8)', async () => {
    const configDir = tempDir('main-config-');
    expect((await runMain(['--config-dir', configDir, 'servers', 'add', 'my fs', '--', 'node', 'server.js'])).code).toBe(0);
    const again = await runMain(['--config-dir', configDir, 'servers', 'add', 'my fs', '--', 'node', 'server.js']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `mcp-roots: A server named "my fs" already exists. Change it with: mcp-roots servers set 'my fs' … (or -- COMMAND to replace its command), or add this one under another name: mcp-roots servers add 'my fs-2' …\n`,
    );
  });

  it('writable without names shows the choice: the state, the names that may be left writable, and the line (#30 item 8)', async () => {
    const configDir = tempDir('main-config-');
    const project = tempDir('main-project-');
    await runMain(['--config-dir', configDir, 'servers', 'add', 'fs', '--', 'node', 'server.js']);
    await runMain(['--config-dir', configDir, 'roots', 'add', project]);
    await runMain(['--config-dir', configDir, 'grant', 'fs', project, '--read-write']);
    const shown = await runMain(['--config-dir', configDir, 'writable', 'fs', project]);
    expect(shown.code, shown.stderr).toBe(0);
    const [state, choices, line] = shown.stdout.trimEnd().split('\n');
    expect(state).toMatch(/^fs: every protected path in .* is read-only$/);
    expect(choices).toMatch(/^You may leave any of these writable in this grant: /);
    for (const name of ['.vscode', '.git/hooks', '.mcp.json']) expect(choices?.split(' ')).toContain(name);
    expect(line).toMatch(/^With: mcp-roots writable fs \S+ NAME…$/);
    const set = await runMain(['--config-dir', configDir, 'writable', 'fs', project, '.vscode']);
    expect(set.stdout).toMatch(/^fs: writable by your choice in .*: \.vscode; the rest stay read-only\n$/);
    // On a read-only grant it says first that the choice does not count there, and how it would.
    await runMain(['--config-dir', configDir, 'grant', 'fs', project, '--read-only']);
    const readOnly = (await runMain(['--config-dir', configDir, 'writable', 'fs', project])).stdout.split('\n');
    expect(readOnly[0]).toMatch(/\(ignored while the grant is read-only\)/);
    expect(readOnly[1]).toMatch(/^The grant is read-only, so nothing in it is writable; a choice counts once it is read-write: mcp-roots grant fs \S+ --read-write$/);
  });

  it('lists when a command group is run without a subcommand, and still names a mistyped one (#30 item 8)', async () => {
    const configDir = tempDir('main-config-');
    const servers = await runMain(['--config-dir', configDir, 'servers']);
    expect(servers).toMatchObject({ code: 0, stderr: '' });
    expect(servers.stdout).toBe((await runMain(['--config-dir', configDir, 'servers', 'list'])).stdout);
    const roots = await runMain(['--config-dir', configDir, 'roots']);
    expect(roots).toMatchObject({ code: 0, stderr: '', stdout: (await runMain(['--config-dir', configDir, 'roots', 'list'])).stdout });
    const typo = await runMain(['--config-dir', configDir, 'servers', 'lst']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^mcp-roots: unknown command 'lst' \(did you mean list\?\)/);
  });
});
