// Command lines as people paste them, split as a shell would quote them.
import { describe, expect, it } from 'vitest';
import { looksLikeCommandLine, splitCommandLine } from '../../renderer/src/components/command-line.js';

const split = (text: string) => {
  const result = splitCommandLine(text);
  if (!result.ok) throw new Error(`not split: ${JSON.stringify(result)}`);
  return result.value;
};

describe('splitCommandLine', () => {
  it('splits on spaces, keeping quoted words whole', () => {
    expect(split('npx -y @modelcontextprotocol/server-filesystem "/home/me/My Projects" \'/tmp/it\'\'s here\'')).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/My Projects', '/tmp/its here'],
      env: [],
    });
    expect(split('uvx mcp-server-fetch --user-agent="My Agent/1.0"').args).toEqual(['mcp-server-fetch', '--user-agent=My Agent/1.0']);
  });

  it('takes leading NAME=value as environment variables', () => {
    expect(split('GITHUB_TOKEN=ghp_123 DEBUG=1 npx -y @modelcontextprotocol/server-github')).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: [['GITHUB_TOKEN', 'ghp_123'], ['DEBUG', '1']],
    });
  });

  it('keeps variables as written, never expanded', () => {
    expect(split('docker run -i --rm -e API_KEY=${API_KEY} mcp/postgres "$DATABASE_URL" ${input:token}').args).toEqual([
      'run', '-i', '--rm', '-e', 'API_KEY=${API_KEY}', 'mcp/postgres', '$DATABASE_URL', '${input:token}',
    ]);
  });

  it('keeps a postgresql:// URL and a glob-looking argument intact', () => {
    expect(split('npx -y @modelcontextprotocol/server-postgres postgresql://user:pw@localhost:5432/db?sslmode=require').args.at(-1)).toBe(
      'postgresql://user:pw@localhost:5432/db?sslmode=require',
    );
    expect(split('node server.js --include *.md').args).toEqual(['server.js', '--include', '*.md']);
  });

  it('reads Windows paths with backslashes as paths', () => {
    expect(split('"C:\\Program Files\\nodejs\\node.exe" C:\\tools\\server.js')).toEqual({
      command: 'C:\\Program Files\\nodejs\\node.exe',
      args: ['C:\\tools\\server.js'],
      env: [],
    });
  });

  it('refuses pipes and redirections by name, and drops a trailing comment', () => {
    expect(splitCommandLine('node server.js | tee log.txt')).toEqual({ ok: false, operators: ['|'] });
    expect(splitCommandLine('npx a && npx b > out')).toEqual({ ok: false, operators: ['&&', '>'] });
    expect(split('npx -y server # the docs say so').args).toEqual(['-y', 'server']);
  });

  it('tells a command line from a lone program name', () => {
    expect(looksLikeCommandLine('npx')).toBe(false);
    expect(looksLikeCommandLine('"/Applications/My App/server"')).toBe(false);
    expect(looksLikeCommandLine('npx -y x')).toBe(true);
    expect(looksLikeCommandLine('TOKEN=1 server')).toBe(true);
  });
});
