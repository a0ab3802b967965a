// One app host per registry, with real processes: a second `mcp-roots serve` on a registry that a
// first one runs says where the first is and exits 1, instead of running every server twice; with
// --port and --allow-second it runs anyway, as asked.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN, ensureBuilt, repoRoot, runCli } from '../support/cli.js';
import { startChild, stopChildren } from '../support/child-process.js';
import { removeTempDirs, tempDir } from '../support/index.js';

afterEach(async () => {
  await stopChildren();
  removeTempDirs();
});

function serve(configDir: string, ...args: string[]) {
  return startChild(process.execPath, [CLI_BIN, '--config-dir', configDir, 'serve', '--no-open', ...args], { cwd: repoRoot });
}

describe('mcp-roots serve: one host per registry', () => {
  it('a second serve names the first one (its URL) and exits 1; --port with --allow-second runs a second', async () => {
    await ensureBuilt();
    const configDir = path.join(tempDir('serve-one-host-'), 'registry');
    const first = serve(configDir, '--port', '0');
    const [, origin] = await first.waitForOutput(/serving on (http:\/\/127\.0\.0\.1:\d+)/);

    const second = serve(configDir);
    // Whichever comes first: its exit, or its serving beside the first (every server twice).
    const outcome = await Promise.race([second.exited.then((code) => `exit ${code}`), second.waitForOutput(/serving on \S+/).then(([line]) => line)]);
    expect(outcome).toBe('exit 1');
    expect(second.stderr()).toContain(`\`mcp-roots serve\` (pid ${first.child.pid}) at ${origin}`);
    expect(second.stderr()).toContain('--allow-second');

    // --allow-second alone is a usage error: the default port is the first one's bookmark.
    expect((await runCli(['--config-dir', configDir, 'serve', '--no-open', '--allow-second'])).code).toBe(2);

    const allowed = serve(configDir, '--port', '0', '--allow-second');
    await allowed.waitForOutput(/serving on http:\/\/127\.0\.0\.1:\d+/);
    expect(await allowed.stop('SIGINT')).toBe(0);

    // Once the first has stopped, a new serve starts as the one host.
    expect(await first.stop('SIGINT')).toBe(0);
    const next = serve(configDir, '--port', '0');
    await next.waitForOutput(/serving on http:\/\/127\.0\.0\.1:\d+/);
  });
});
