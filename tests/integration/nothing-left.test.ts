// Nothing of a confined server is left in the person's folders or among the processes, however the
// app stops: `mcp-roots serve` (the app's headless form) runs a server with a read-write grant of a
// git repository, and is stopped as a terminal stops it (Ctrl+C: SIGINT to the whole process group,
// a closed terminal: SIGHUP to the group), by SIGTERM, or killed outright (kill -9). `ls -A` and
// `git status --porcelain` of the repository are the same before, while it runs (with the file view)
// and after; no helper, bwrap, pasta or server of it lives on (pasta ended with a kill -9 too: #27). With bind mounts (the view off),
// placeholders show while it runs and are gone after each stop: at once after a signal, and after a
// kill -9 by the next process that confines a server with the same data folder.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { isRunning, processesNaming, startChild } from '../support/child-process.js';
import { ensureBuilt } from '../support/cli.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const cli = path.join(repoRoot, 'bin', 'mcp-roots.js');
afterEach(removeTempDirs);
// `serve` runs from dist/: built from the sources under test first.
beforeAll(() => ensureBuilt(), 300_000);

/** The repository as the person sees it: every entry (hidden ones too) and git's view of it. */
function looks(repo: string): string {
  const status = execFileSync('git', ['-C', repo, 'status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' });
  return `${fs.readdirSync(repo).sort().join(' ')} | ${status.trim()}`;
}

/**
 * The pasta processes that give those processes their network: pasta's command line names the
 * namespace it joined (/proc/PID/ns/net), not the data folder, so they are found through them.
 */
function pastaOf(pids: readonly string[]): string[] {
  const names = pids.map((pid) => `/proc/${pid.split(' ')[0]}/ns/net`);
  return fs.readdirSync('/proc').flatMap((pid) => {
    if (!/^\d+$/.test(pid)) return [];
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return cmdline.split('\0')[0]?.endsWith('pasta') && names.some((name) => cmdline.includes(name)) ? [pid] : [];
    } catch {
      return [];
    }
  });
}

/** A registry with one server (the any-path fixture) granted the repository read-write. */
function world(): { dataDir: string; repo: string } {
  const dataDir = tempDir('nothing-left-data-');
  const repo = tempDir('nothing-left-repo-');
  execFileSync('git', ['init', '-q', repo]);
  fs.writeFileSync(path.join(repo, 'README.md'), 'mine\n');
  const run = (...args: string[]) => execFileSync(process.execPath, [cli, '--config-dir', dataDir, ...args], { encoding: 'utf8', env: { ...process.env } });
  run('roots', 'add', repo);
  run('servers', 'add', 'keeper', '--', process.execPath, path.join(repoRoot, 'tests/fixtures/any-path-server.mjs'));
  run('grant', 'keeper', repo, '--read-write');
  return { dataDir, repo };
}

async function runningConfined(dataDir: string): Promise<void> {
  await waitFor(
    () => {
      const report = JSON.parse(execFileSync(process.execPath, [cli, '--config-dir', dataDir, 'status', '--json'], { encoding: 'utf8' })) as {
        servers: Array<{ name: string; live?: { confinement?: { selfCheck?: { verified: boolean } } } }>;
      };
      return report.servers.find((server) => server.name === 'keeper')?.live?.confinement?.selfCheck?.verified === true;
    },
    { what: 'the server to run confined, its sandbox verified', timeoutMs: 90_000 },
  );
}

const stops = [
  { how: 'Ctrl+C (SIGINT to the process group)', stop: (pid: number) => process.kill(-pid, 'SIGINT') },
  { how: 'a closed terminal (SIGHUP to the process group)', stop: (pid: number) => process.kill(-pid, 'SIGHUP') },
  { how: 'SIGTERM', stop: (pid: number) => process.kill(pid, 'SIGTERM') },
  { how: 'kill -9 of the app', stop: (pid: number) => process.kill(pid, 'SIGKILL') },
] as const;

const mechanisms = [
  ...(support.view?.available ? [{ name: 'the file view', env: {} }] : []),
  { name: 'bind mounts', env: { MCP_ROOTS_FILE_VIEW: 'off' } },
] as const;

describe.runIf(support.kind === 'bwrap')('nothing left behind', () => {
  for (const mechanism of mechanisms) {
    for (const { how, stop } of stops) {
      it(`with ${mechanism.name}: the repository looks as before, and no process of it lives on, after ${how}`, async () => {
        const { dataDir, repo } = world();
        const before = looks(repo);
        const env = { ...process.env, ...mechanism.env };
        const serve = startChild(process.execPath, [cli, '--config-dir', dataDir, 'serve', '--port', '0', '--no-open'], { cwd: repoRoot, env, detached: true });
        await serve.waitForOutput(/Open: http/, 60_000);
        await runningConfined(dataDir);
        const during = looks(repo);
        // Its network (on by default) comes from pasta where pasta works: it must end with it too.
        const pasta = pastaOf(processesNaming(dataDir));
        if (support.privateNetwork?.pasta) expect(pasta, 'its pasta').toHaveLength(1);
        if (mechanism.name === 'the file view') expect(during, 'while it runs').toBe(before);
        else expect(during, 'while it runs: the placeholders of bind mounts').not.toBe(before);
        stop(serve.child.pid as number);
        await serve.exited;
        await waitFor(() => processesNaming(dataDir).length === 0, { what: 'every process of it to end', timeoutMs: 30_000, explain: () => processesNaming(dataDir).join('; ') });
        await waitFor(() => !pasta.some(isRunning), { what: 'its pasta to end', timeoutMs: 30_000, explain: () => pasta.filter(isRunning).join(', ') });
        if (how === 'kill -9 of the app' && mechanism.name === 'bind mounts') {
          // Nothing cleaned up after it: the next process with the same data folder takes its placeholders
          // over (its server holds the same names again meanwhile) and removes them when it stops.
          expect(looks(repo)).not.toBe(before);
          const next = startChild(process.execPath, [cli, '--config-dir', dataDir, 'serve', '--port', '0', '--no-open'], { cwd: repoRoot, env, detached: true });
          await next.waitForOutput(/Open: http/, 60_000);
          await runningConfined(dataDir);
          process.kill(-(next.child.pid as number), 'SIGINT');
          await next.exited;
          await waitFor(() => processesNaming(dataDir).length === 0, { what: 'every process of the next one to end', timeoutMs: 30_000, explain: () => processesNaming(dataDir).join('; ') });
        }
        await waitFor(() => looks(repo) === before, { what: 'the repository to look as before', timeoutMs: 30_000, explain: () => `${looks(repo)} (before: ${before})` });
      }, 180_000);
    }
  }
});
