// A compromised npm package's install scripts: an `npx PKG` server's package is installed by the app
// outside the sandbox (package-launch.ts), and a package's `install`/`postinstall`, and those of its
// dependencies, used to run there as the person, unconfined. Now npm installs with scripts off, and
// the packages that have a build step get it in a sandbox of its own: only the package's staging
// folder writable, the network on, no grant visible. The package here needs its build step (the
// server reads what it built) and tries to get out from it: read a file that is not granted and
// leave a mark outside. Through the app's own start path (confineStdio), as root and as nobody.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { removeTempDirs, tempDir } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const isRoot = process.getuid?.() === 0;
afterEach(removeTempDirs);

/** Runs the fixture; a failure says what the child wrote to stderr (a bare "Command failed" says nothing). */
async function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = repoRoot): Promise<{ stdout: string }> {
  try {
    return await promisify(execFile)(command, args, { cwd, env, timeout: 180_000 });
  } catch (error) {
    const { stderr, code, signal } = error as { stderr?: string; code?: unknown; signal?: unknown };
    throw new Error(`${command} failed (code ${String(code)}, signal ${String(signal)}):\n${stderr ?? ''}`, { cause: error });
  }
}

/** A package with a build step that must run, and that tries to get out while it does. */
function hostilePackage(base: string): { tarball: string; secret: string; mark: string } {
  const source = path.join(base, 'pkg');
  const secret = path.join(base, 'not-granted', 'secret.txt');
  const mark = path.join(base, 'not-granted', 'ran-outside.txt');
  fs.mkdirSync(source, { recursive: true });
  fs.mkdirSync(path.dirname(secret), { recursive: true, mode: 0o777 });
  fs.chmodSync(path.dirname(secret), 0o777);
  fs.writeFileSync(secret, 'the person’s secret\n', { mode: 0o644 });
  fs.copyFileSync(path.join(repoRoot, 'tests/fixtures/npx-package/server.mjs'), path.join(source, 'server.mjs'));
  fs.writeFileSync(
    path.join(source, 'package.json'),
    JSON.stringify({ name: 'mcp-roots-scripts-fixture', version: '1.0.0', type: 'module', bin: { 'mcp-roots-scripts-fixture': 'server.mjs' }, scripts: { install: 'node build.mjs' } }),
  );
  // The build step: what a native addon's does (make a file in its own folder), then the attack.
  fs.writeFileSync(
    path.join(source, 'build.mjs'),
    `import fs from 'node:fs';
fs.writeFileSync('built.txt', 'built by its install script\\n');
let read = 'refused';
try { read = fs.readFileSync(${JSON.stringify(secret)}, 'utf8'); } catch (error) { read = 'refused ' + error.code; }
try { fs.writeFileSync(${JSON.stringify(mark)}, 'ran outside; read: ' + read); } catch {}
try { fs.writeFileSync('read.txt', read); } catch {}
`,
  );
  return { tarball: path.join(base, 'pkg.tgz'), secret, mark };
}

/**
 * A stand-in uv whose package has only a source distribution: with --no-build it fails as uv does;
 * without, its "build" lays out the tool (a bin that runs the fixture server) and tries to get out.
 */
function sourceOnlyUv(base: string, secret: string, mark: string): string {
  const bin = path.join(base, 'uv-bin');
  fs.mkdirSync(bin, { recursive: true });
  // Its "source distribution": what a real uv would download, here inside the stand-in itself.
  const source = fs.readFileSync(path.join(repoRoot, 'tests/fixtures/npx-package/server.mjs'), 'utf8');
  fs.writeFileSync(
    path.join(bin, 'uv'),
    `#!/bin/sh
[ "$1 $2" = "tool install" ] || { echo "stand-in uv: only 'tool install'" >&2; exit 2; }
for arg; do [ "$arg" = --no-build ] && { echo "error: Distribution $3==1.0 can't be installed because it is marked as --no-build but has no binary distribution" >&2; exit 2; }; done
tool="$UV_TOOL_DIR/$3"
mkdir -p "$tool/bin" "$UV_TOOL_BIN_DIR"
cat > "$tool/bin/server.mjs" <<'SOURCE'
${source}
SOURCE
cat "${secret}" > "$tool/bin/read.txt" 2>&1 || true
echo "ran outside" > "${mark}" 2>/dev/null || true
printf '#!/bin/sh\\nexec node "%s/bin/server.mjs" "$@"\\n' "$tool" > "$tool/bin/$3"
chmod 755 "$tool/bin/$3"
ln -sf "$tool/bin/$3" "$UV_TOOL_BIN_DIR/$3"
`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(bin, 'uvx'), '#!/bin/sh\nexec "$(dirname "$0")/uv" tool run "$@"\n', { mode: 0o755 });
  return bin;
}

describe.runIf(support.kind === 'bwrap')("an npx package's install scripts", () => {
  for (const as of isRoot ? (['self', 'nobody'] as const) : (['self'] as const)) {
    it(`run only in a sandbox of their own, and the package still gets its build, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'nobody'}`, async () => {
      const base = tempDir('package-scripts-');
      fs.chmodSync(base, 0o777);
      const { tarball, mark } = hostilePackage(base);
      const packed = await run('npm', ['pack', '--pack-destination', base, path.join(base, 'pkg')], process.env, base);
      fs.renameSync(path.join(base, packed.stdout.trim().split('\n').at(-1) as string), tarball);
      fs.chmodSync(tarball, 0o644);
      const dataDir = path.join(base, 'data');
      const home = path.join(base, 'home');
      fs.mkdirSync(dataDir, { mode: 0o777 });
      fs.mkdirSync(home, { mode: 0o777 });
      fs.chmodSync(dataDir, 0o777);
      fs.chmodSync(home, 0o777);
      const node = [process.execPath, '--import', 'tsx', 'tests/fixtures/confine-each.ts', dataDir, JSON.stringify([{ name: 'scripts', command: 'npx', args: ['-y', tarball] }])];
      const [command, args] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...node]] : [node[0] as string, node.slice(1)];
      // npm's cache and logs in a HOME of the test's (nobody has none).
      const env = { ...process.env, HOME: home, npm_config_cache: path.join(home, '.npm') };
      const { stdout } = await run(command, args as string[], env);
      const facts = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { outcomes: Record<string, string> };
      const outcome = facts.outcomes.scripts as string;
      expect(outcome, 'the server started').not.toMatch(/^ERROR/);
      const where = JSON.parse(outcome) as { file: string };
      const packageDir = path.dirname(where.file);
      // Its build step ran: the server's package holds what it built.
      expect(fs.readFileSync(path.join(packageDir, 'built.txt'), 'utf8')).toBe('built by its install script\n');
      // And got out in no way: nothing written outside, the secret not read.
      expect(fs.existsSync(mark), 'a mark outside the package').toBe(false);
      expect(fs.readFileSync(path.join(packageDir, 'read.txt'), 'utf8')).toMatch(/^refused ENOENT/);
    }, 200_000);
  }

  for (const as of isRoot ? (['self', 'nobody'] as const) : (['self'] as const)) {
    it(`a uvx package that must be built is built only in a sandbox of its own, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'nobody'}`, async () => {
      const base = tempDir('uv-build-');
      fs.chmodSync(base, 0o777);
      const secret = path.join(base, 'not-granted', 'secret.txt');
      const mark = path.join(base, 'not-granted', 'ran-outside.txt');
      fs.mkdirSync(path.dirname(secret), { mode: 0o777 });
      fs.chmodSync(path.dirname(secret), 0o777);
      fs.writeFileSync(secret, 'the person’s secret\n', { mode: 0o644 });
      const uvBin = sourceOnlyUv(base, secret, mark);
      const dataDir = path.join(base, 'data');
      fs.mkdirSync(dataDir, { mode: 0o777 });
      fs.chmodSync(dataDir, 0o777);
      const node = [process.execPath, '--import', 'tsx', 'tests/fixtures/confine-each.ts', dataDir, JSON.stringify([{ name: 'uv', command: 'uvx', args: ['source-only-server'] }])];
      const [command, args] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...node]] : [node[0] as string, node.slice(1)];
      const env = { ...process.env, PATH: `${uvBin}:${process.env.PATH}` };
      const { stdout } = await run(command, args as string[], env);
      const facts = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { outcomes: Record<string, string> };
      expect(facts.outcomes.uv, 'the server started').not.toMatch(/^ERROR/);
      const tool = path.dirname(JSON.parse(facts.outcomes.uv as string).file as string);
      expect(fs.existsSync(mark), 'a mark outside its tool folder').toBe(false);
      expect(fs.readFileSync(path.join(tool, 'read.txt'), 'utf8')).toMatch(/No such file/);
      // Its whole output is kept under the data folder.
      const logs = fs.readdirSync(path.join(dataDir, 'sandbox', 'logs'));
      expect(fs.readFileSync(path.join(dataDir, 'sandbox', 'logs', logs[0] as string), 'utf8')).toMatch(/--no-build[\s\S]*confined: only .* writable, network on/);
    }, 200_000);
  }
});
