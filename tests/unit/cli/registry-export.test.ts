import { describe, expect, it } from 'vitest';
import { exportRegistry, parseExport } from '../../../electron/cli/registry-export.js';
import type { Registry } from '../../../shared/domain.js';
import { emptyRegistry } from '../../../shared/registry-schema.js';

function registry(): Registry {
  const value = emptyRegistry();
  value.roots.push({ id: 'r1', path: '/home/me/link', canonicalPath: '/data/project', name: 'project', addedAt: '2026-01-01T00:00:00.000Z' });
  value.servers.push(
    {
      id: 's1',
      name: 'github',
      transport: { type: 'stdio', command: 'docker', args: ['run', '--token=abc', '${roots}'], env: { GITHUB_TOKEN: 'ghp_x', BASE_URL: 'https://api.github.com', SEALED: 'enc:v1:AAAA' } },
      enabled: true,
      sharing: true,
      sandbox: false,
      network: true,
      askForFolders: true,
      addedAt: '',
    },
    {
      id: 's2',
      name: 'remote',
      transport: { type: 'http', url: 'https://me:pw@x.test/mcp?token=t&page=2', headers: { Authorization: 'Bearer t', 'X-Mode': 'fast' } },
      enabled: false,
      sharing: true,
      sandbox: true,
      network: false,
      askForFolders: false,
      addedAt: '',
    },
  );
  value.grants = { s1: { r1: 'read-only' }, s2: {} };
  return value;
}

describe('the export file', () => {
  it('names roots by path and grants by canonical path with their mode, with no ids of this machine', () => {
    const document = exportRegistry(registry(), false, new Date('2026-11-22T10:00:00Z'));
    expect(document.exportedAt).toBe('2026-11-22T10:00:00.000Z');
    expect(document.roots).toEqual([{ path: '/home/me/link', canonicalPath: '/data/project', name: 'project' }]);
    expect(document.servers[0]?.grants).toEqual([{ path: '/data/project', mode: 'read-only' }]);
    expect(document.servers.map(({ sandbox, network, askForFolders }) => ({ sandbox, network, askForFolders }))).toEqual([
      { sandbox: false, network: true, askForFolders: true },
      { sandbox: true, network: false, askForFolders: false },
    ]);
    expect(JSON.stringify(document)).not.toMatch(/"(r1|s1|s2)"/);
  });

  it('leaves every secret out by default and names each one; plain values stay', () => {
    const [github, remote] = exportRegistry(registry(), false).servers;
    expect(github?.transport).toEqual({ type: 'stdio', command: 'docker', args: ['run', null, '${roots}'], env: { GITHUB_TOKEN: null, BASE_URL: 'https://api.github.com', SEALED: null } });
    expect(github?.leftOut).toEqual(['argument 2', 'env GITHUB_TOKEN', 'env SEALED (encrypted by the desktop app)']);
    expect(remote?.transport).toEqual({ type: 'http', url: 'https://me@x.test/mcp?page=2', headers: { Authorization: null, 'X-Mode': 'fast' } });
    expect(remote?.leftOut).toEqual(['url password', 'url query token', 'header Authorization']);
    const text = JSON.stringify(exportRegistry(registry(), false));
    for (const secret of ['ghp_x', 'Bearer t', ':pw@', 'token=t', '--token=abc', 'enc:v1']) expect(text).not.toContain(secret);
  });

  it('writes secrets in clear only when asked, and never what the desktop app encrypted', () => {
    const [github, remote] = exportRegistry(registry(), true).servers;
    expect(github?.transport).toMatchObject({ args: ['run', '--token=abc', '${roots}'], env: { GITHUB_TOKEN: 'ghp_x', SEALED: null } });
    expect(github?.leftOut).toEqual(['env SEALED (encrypted by the desktop app)']);
    expect(remote?.transport).toMatchObject({ url: 'https://me:pw@x.test/mcp?token=t&page=2', headers: { Authorization: 'Bearer t' } });
  });

  it('reads back what it wrote, and says in one line why another file is not one', () => {
    const document = exportRegistry(registry(), false);
    expect(parseExport(JSON.stringify(document), 'f.json')).toEqual(document);
    expect(() => parseExport('{', 'f.json')).toThrow(/^f\.json is not JSON/);
    expect(() => parseExport('{"mcpServers":{}}', 'f.json')).toThrow('f.json is not an mcp-roots export (written by `mcp-roots export`).');
    expect(() => parseExport(JSON.stringify({ ...document, servers: [{ name: 'x' }] }), 'f.json')).toThrow(/^f\.json is not a valid mcp-roots export: servers\.0\./);
  });

  it('carries no grant’s opt-in (an imported grant starts protected), and a file that names one is not an export', () => {
    const chosen = registry();
    chosen.servers[0] = { ...chosen.servers[0]!, writableByChoice: { r1: ['.git/hooks'] } };
    const document = exportRegistry(chosen, true);
    expect(document.servers[0]?.grants).toEqual([{ path: '/data/project', mode: 'read-only' }]);
    expect(JSON.stringify(document)).not.toMatch(/writable|\.git\/hooks/);
    const smuggled = { ...document, servers: [{ ...document.servers[0], writableByChoice: { '/data/project': ['.git/hooks'] } }, document.servers[1]] };
    expect(() => parseExport(JSON.stringify(smuggled), 'f.json')).toThrow(/^f\.json is not a valid mcp-roots export/);
    const inGrant = { ...document, servers: [{ ...document.servers[0], grants: [{ path: '/data/project', mode: 'read-write', writable: ['.git/hooks'] }] }, document.servers[1]] };
    expect(() => parseExport(JSON.stringify(inGrant), 'f.json')).toThrow(/^f\.json is not a valid mcp-roots export/);
  });
});

