// How a server's command reads in the server list and the "Use with…" picker (issue 23, item 14): a
// folder argument must still read as the absolute path it is, never as a relative one.
import { describe, expect, it } from 'vitest';
import { transportSummary } from '../../renderer/src/components/transport-summary.js';

const stdio = (command: string, args: string[]) => transportSummary({ type: 'stdio', command, args, env: {} });

describe('transportSummary', () => {
  it('shows a short folder argument whole', () => {
    expect(stdio('npx', ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/private'])).toBe('npx -y @modelcontextprotocol/server-filesystem /home/me/private');
    expect(stdio('node', ['~/code/project-a'])).toBe('node ~/code/project-a');
  });

  it('shortens a long folder in the middle, keeping its start and its last two parts', () => {
    expect(stdio('npx', ['/home/someone/work/clients/acme/private'])).toBe('npx /home/…/acme/private');
    expect(stdio('server.exe', ['C:\\Users\\someone\\Documents\\clients\\acme\\private'])).toBe('server.exe C:\\…\\acme\\private');
    expect(stdio('npx', ['/home/someone/My Projects/a very long folder name'])).toBe('npx "/home/…/My Projects/a very long folder name"');
  });

  it('still names a package by its node_modules path, and keeps URLs and UNC shares whole', () => {
    expect(stdio('/usr/bin/node', ['/x/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', '/srv/data'])).toBe('node @modelcontextprotocol/server-filesystem /srv/data');
    expect(stdio('npx', ['postgresql://localhost/some-long-database-name-here'])).toBe('npx postgresql://localhost/some-long-database-name-here');
    expect(stdio('server.exe', ['\\\\fileserver\\share\\teams\\design\\assets\\2026'])).toBe('server.exe \\\\fileserver\\share\\teams\\design\\assets\\2026');
  });
});
