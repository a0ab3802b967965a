// export / import-registry: moving to a new machine. Secrets are never silently dropped or leaked;
// grants from the file are shown and applied only once confirmed; importing twice changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../../../electron/cli/registry-view.js';
import { runMain, type InProcessOptions } from '../../../support/cli-in-process.js';
import { removeTempDirs, tempDir } from '../../../support/temp-dirs.js';

let home: string;
let oldMachine: string;
let newMachine: string;
const cli = (configDir: string, args: string[], options: InProcessOptions = {}) => runMain(['--config-dir', configDir, ...args], { cwd: home, home, ...options });
const status = async (configDir: string) => JSON.parse((await cli(configDir, ['status', '--json'])).stdout) as StatusReport;
const grants = async (configDir: string) => {
  const report = await status(configDir);
  const pathOf = new Map(report.roots.map((root) => [root.id, root.path]));
  return Object.fromEntries(report.servers.map((server) => [server.name, server.grantedRootIds.map((id) => pathOf.get(id))]));
};

beforeEach(async () => {
  home = tempDir('home-');
  oldMachine = tempDir('old-config-');
  newMachine = tempDir('new-config-');
  for (const folder of ['code/app', 'notes']) fs.mkdirSync(path.join(home, folder), { recursive: true });
  await cli(oldMachine, ['roots', 'add', '~/code/app', '~/notes']);
  await cli(oldMachine, ['roots', 'rename', 'notes', 'my notes']);
  await cli(oldMachine, ['servers', 'add', 'fs', '--', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '${roots}']);
  await cli(oldMachine, ['servers', 'add', 'github', '--env', 'GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123', '--env', 'LOG=debug', '--', 'docker', 'run', '-i', 'github-mcp']);
  await cli(oldMachine, ['grant', 'fs', 'app', 'my notes']);
  await cli(oldMachine, ['grant', 'github', 'app']);
});
afterEach(removeTempDirs);

describe('export', () => {
  it('leaves secrets out, names each one, and writes a file only you can read', async () => {
    const file = path.join(home, 'registry.json');
    const result = await cli(oldMachine, ['export', '~/registry.json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`exported 2 root(s) and 2 server(s) to ${file}\n  github: left out env GITHUB_TOKEN\nSecrets were left out; add --include-secrets to write them in clear.\n`);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('ghp_');
    expect(text).toContain('"LOG": "debug"');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('does not overwrite a file unless --force', async () => {
    const file = path.join(home, 'registry.json');
    fs.writeFileSync(file, 'mine');
    expect(await cli(oldMachine, ['export', file])).toMatchObject({ code: 1, stderr: `mcp-roots: ${file} exists; add --force to overwrite it.\n` });
    expect(fs.readFileSync(file, 'utf8')).toBe('mine');
    expect((await cli(oldMachine, ['export', file, '--force', '--include-secrets'])).code).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toContain('ghp_abcdefghijklmnopqrstuvwxyz0123');
  });
});

describe('import-registry', () => {
  let file: string;
  beforeEach(async () => {
    file = path.join(home, 'registry.json');
    await cli(oldMachine, ['export', file]);
  });

  it('without a terminal or --yes: adds roots and servers, shows the grants, applies none, exits 1', async () => {
    const result = await cli(newMachine, ['import-registry', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Grants to confirm (each lets a server see a folder):\n  fs -> ' + path.join(home, 'code/app'));
    expect(result.stdout).toContain(`added server github, disabled until you fill in env GITHUB_TOKEN: mcp-roots servers set github --env GITHUB_TOKEN=… --enabled on`);
    expect(result.stderr).toBe('3 grant(s) not applied: confirm them with --yes (or run this in a terminal to be asked).\n');
    const report = await status(newMachine);
    expect(report.roots.map((root) => root.name)).toEqual(['app', 'my notes']);
    expect(report.servers.map((server) => [server.name, server.enabled])).toEqual([['fs', true], ['github', false]]);
    expect(await grants(newMachine)).toEqual({ fs: [], github: [] });
  });

  it('with --yes: grants what the file grants', async () => {
    expect((await cli(newMachine, ['import-registry', file, '--yes'])).code).toBe(0);
    expect(await grants(newMachine)).toEqual(await grants(oldMachine));
  });

  it('at a terminal: asks once, and takes no for an answer', async () => {
    const declined = await cli(newMachine, ['import-registry', file], { tty: true, input: 'n\n' });
    expect(declined.code).toBe(0);
    expect(declined.stdout).toContain('Grant these 3? [y/N] ');
    expect(declined.stderr).toBe('3 grant(s) not applied.\n');
    expect(await grants(newMachine)).toEqual({ fs: [], github: [] });
    const accepted = await cli(newMachine, ['import-registry', file], { tty: true, input: 'y\n' });
    expect(accepted.code).toBe(0);
    expect(await grants(newMachine)).toEqual(await grants(oldMachine));
  });

  it('twice changes nothing the second time, not even the file', async () => {
    await cli(newMachine, ['import-registry', file, '--yes']);
    const config = path.join(newMachine, 'config.json');
    const before = { text: fs.readFileSync(config, 'utf8'), mtime: fs.statSync(config).mtimeMs };
    const again = await cli(newMachine, ['import-registry', file, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing to import: everything in the file is here already.');
    expect({ text: fs.readFileSync(config, 'utf8'), mtime: fs.statSync(config).mtimeMs }).toEqual(before);
  });

  it('keeps a server that is here already as it is, and never revokes', async () => {
    await cli(newMachine, ['roots', 'add', '~/notes']);
    await cli(newMachine, ['servers', 'add', 'fs', '--disabled', '--', 'node', 'mine.js']);
    await cli(newMachine, ['grant', 'fs', 'notes']);
    const result = await cli(newMachine, ['import-registry', file, '--yes']);
    expect(result.stdout).toContain('= fs  (already here; keeps its own command, args, enabled)');
    const fsServer = (await status(newMachine)).servers.find((server) => server.name === 'fs');
    expect(fsServer?.transport).toMatchObject({ command: 'node', args: ['mine.js'] });
    expect(fsServer?.enabled).toBe(false);
    expect((await grants(newMachine)).fs?.sort()).toEqual([path.join(home, 'code/app'), path.join(home, 'notes')].sort());
  });

  it('--dry-run changes nothing', async () => {
    const result = await cli(newMachine, ['import-registry', file, '--dry-run']);
    expect(result.stdout).toContain('Dry run: nothing changed.');
    expect(fs.existsSync(path.join(newMachine, 'config.json')) ? (await status(newMachine)).roots : []).toEqual([]);
  });

  it('says which folders are not on this machine, and grants nothing to them', async () => {
    fs.rmSync(path.join(home, 'notes'), { recursive: true });
    const result = await cli(newMachine, ['import-registry', file, '--yes']);
    expect(result.stdout).toContain(`! my notes  ${path.join(home, 'notes')}  (not added: "${path.join(home, 'notes')}" does not exist.)`);
    expect(result.stdout).toContain(`! fs -> ${path.join(home, 'notes')}  (not granted: "${path.join(home, 'notes')}" does not exist.)`);
    expect(await grants(newMachine)).toEqual({ fs: [path.join(home, 'code/app')], github: [path.join(home, 'code/app')] });
  });

  it('refuses a file that is not an export', async () => {
    fs.writeFileSync(file, '{"mcpServers": {}}');
    expect(await cli(newMachine, ['import-registry', file])).toMatchObject({ code: 2, stderr: `mcp-roots: ${file} is not an mcp-roots export (written by \`mcp-roots export\`).\n` });
  });
});
