// Every command the README shows, run as written, in bash, in the order shown: one shared registry
// and a stand-in home folder holding the folders the examples name. Nothing is rewritten. The lines
// run from the repository's folder with npm set offline, so `npx -y @modelcontextprotocol/server-filesystem`
// runs the installed devDependency instead of downloading it (and fails loudly if it would download).
// `mcp-roots` is found on PATH the way a reader gets it there: by the README's own setup line
// (`npm link`, into a temp npm prefix whose bin folder is on PATH), never by a path. Long-running commands (serve, proxy) are checked
// while they run, then stopped. The `npm …` lines are checked to name real scripts; running them is
// the job of .ci/run (npm ci, npm test) and tests/e2e/npm-start.test.ts (npm start without Electron).
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../electron/cli/registry-view.js';
import { startChild, stopChildren } from '../support/child-process.js';
import { ensureBuilt, repoRoot } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { waitFor } from '../support/wait-for.js';

interface ReadmeLine {
  block: number;
  text: string;
}

/** Every non-empty, non-comment line of every ```sh block, in order. */
function readmeCommands(): ReadmeLine[] {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const lines: ReadmeLine[] = [];
  let block = 0;
  for (const match of readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    block++;
    for (const text of (match[1] ?? '').split('\n')) if (text.trim() && !text.trim().startsWith('#')) lines.push({ block, text });
  }
  return lines;
}

const commands = readmeCommands();
let home: string;
let npmPrefix: string;
let env: NodeJS.ProcessEnv;

function shell(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', line], { cwd: repoRoot, env, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  await ensureBuilt();
  home = tempDir('readme-home-');
  // npm's global folder, as a reader has it: its bin on PATH (`npm link` puts `mcp-roots` there).
  npmPrefix = tempDir('readme-npm-prefix-');
  // The folders the examples name, as a reader would have them.
  for (const folder of ['code/project-a', 'code/project-b', 'My Notes', '.local/share/bash-completion/completions', '.zfunc', '.config/fish/completions']) {
    fs.mkdirSync(path.join(home, folder), { recursive: true });
  }
  // Nothing else on PATH may answer to `mcp-roots` (a global install on this machine).
  const inherited = (process.env.PATH ?? '').split(':').filter((dir) => !fs.existsSync(path.join(dir, 'mcp-roots')));
  env = { PATH: [path.join(npmPrefix, 'bin'), ...inherited].join(':'), npm_config_prefix: npmPrefix, HOME: home, MCP_ROOTS_CONFIG_DIR: tempDir('readme-config-'), npm_config_offline: 'true', XDG_CONFIG_HOME: path.join(home, '.config') };
}, 600_000);

afterAll(async () => {
  await stopChildren();
  removeTempDirs();
});

describe('the README', () => {
  it('shows commands in sh blocks', () => {
    expect(commands.filter((line) => line.text.includes('mcp-roots')).length).toBeGreaterThan(15);
  });

  it('names only npm scripts that exist', () => {
    const scripts = Object.keys((JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const npmLines = commands.filter((line) => /^npm /.test(line.text));
    expect(npmLines.length).toBeGreaterThan(0);
    for (const line of npmLines) {
      for (const [, verb, script] of line.text.matchAll(/\bnpm (run )?([\w:-]+)/g)) {
        const name = script as string;
        // npm's own commands: install, and link (the command line's setup step).
        if (!verb && (name === 'install' || name === 'link')) continue;
        expect(scripts, line.text).toContain(name);
      }
    }
  });

  it('runs every mcp-roots command as written', async () => {
    // The README's setup step for the command line runs as written, in its place among the rest.
    const run = commands.filter((line) => !/^npm /.test(line.text) || /^npm link\b/.test(line.text));
    expect(run[0]?.text, 'the command line section starts with its setup step').toMatch(/^npm link\b/);
    for (const line of run) {
      const command = line.text.replace(/\s+#.*$/, '');
      if (/^npm link\b/.test(command)) {
        const result = await shell(command);
        expect(result.code, `${command}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
        expect((await shell('command -v mcp-roots')).stdout.trim()).toBe(path.join(npmPrefix, 'bin', 'mcp-roots'));
        continue;
      }
      if (/mcp-roots serve\b/.test(command)) {
        const serve = startChild('bash', ['-c', command], { cwd: repoRoot, env, detached: true });
        const [, url] = await serve.waitForOutput(/Open: (http:\/\/127\.0\.0\.1:\d+\/\S*)/, 60_000);
        expect(await get(new URL('/', url).href), command).toBe(200);
        process.kill(-(serve.child.pid as number), 'SIGTERM');
        expect(await serve.exited, `${command}: ${serve.stderr()}`).toBe(0);
        continue;
      }
      if (/mcp-roots proxy\b/.test(command)) {
        const proxy = startChild('bash', ['-c', command], { cwd: repoRoot, env });
        proxy.child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'readme-test', version: '1' } } })}\n`);
        const [answer] = await proxy.waitForOutput(/\{.*"id":1.*\}/, 60_000);
        expect(JSON.parse(answer).result.serverInfo.name, command).toBe('secure-filesystem-server');
        // While it runs, `status` shows the session and how its server is confined, times in ISO 8601.
        const session = await waitFor(async () => {
          const report = JSON.parse((await shell('mcp-roots status --json')).stdout) as StatusReport;
          return report.proxies.find((entry) => entry.serverName === 'filesystem' && entry.confinement);
        }, { timeoutMs: 60_000, what: 'the proxied session in mcp-roots status --json' });
        expect(session.confinement?.state).toMatch(/^(enforced|advisory)$/);
        expect(session.startedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
        expect((await shell('mcp-roots status')).stdout).toMatch(/^Running behind mcp-roots proxy\n {2}filesystem for readme-test 1 \(pid \d+\) {2}\w+, /m);
        proxy.child.stdin?.end();
        expect(await proxy.exited, `${command}: ${proxy.stderr()}`).toBe(0);
        continue;
      }
      const result = await shell(command);
      expect(result.code, `${command}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
    }
  }, 600_000);

  it('left the registry, the host config and the completions as the README says', async () => {
    const status = JSON.parse((await shell('mcp-roots status --json')).stdout) as StatusReport;
    const label = new Map(status.roots.map((root) => [root.id, root.name]));
    expect(status.roots.map((root) => root.path)).toEqual([path.join(home, 'code/project-a'), path.join(home, 'My Notes'), path.join(home, 'code/project-b')]);
    const servers = Object.fromEntries(status.servers.map((server) => [server.name, { sharing: server.sharing, granted: server.grantedRootIds.map((id) => label.get(id)), transport: server.transport }]));
    expect(servers.filesystem).toEqual({ sharing: true, granted: ['project-a'], transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'], env: {} } });
    expect(servers.fs).toEqual({ sharing: false, granted: ['project-a'], transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${roots}'], env: {} } });
    const claude = JSON.parse(fs.readFileSync(path.join(home, '.config/Claude/claude_desktop_config.json'), 'utf8')) as { mcpServers: Record<string, { args: string[] }> };
    expect(claude.mcpServers.filesystem?.args).toContain('proxy');
    expect(JSON.parse(fs.readFileSync(path.join(home, 'mcp-roots.json'), 'utf8'))).toMatchObject({ kind: 'mcp-roots-registry', roots: expect.any(Array) });
    const syntax = { bash: '.local/share/bash-completion/completions/mcp-roots', zsh: '.zfunc/_mcp-roots', fish: '.config/fish/completions/mcp-roots.fish' };
    for (const [shellName, file] of Object.entries(syntax)) {
      expect(fs.readFileSync(path.join(home, file), 'utf8'), file).toContain(`${shellName} completion for mcp-roots`);
      if (hasShell(shellName)) execFileSync(shellName, ['-n', path.join(home, file)]);
    }
  });
});

function hasShell(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
