// The packaged desktop app, checked from the outside. A clean build is packed for Linux by
// electron-builder with a stand-in Electron (scripts/pack/stand-in-electron.js: Electron's binary
// cannot be downloaded here) and a stand-in fpm (scripts/pack/stand-in-fpm.js: neither can fpm),
// into the .deb people install. Then: the fuses in the packed executable, what app.asar holds and
// must not hold, the desktop entry, and "Use with…" from the installed files: the packed
// executable writes a host config whose command starts the proxy, and a host that runs that
// command gets the registry's folders.
import { Client } from '@modelcontextprotocol/client';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import { createStandInElectron } from '../../scripts/pack/stand-in-electron.js';
import { allowedDirectories, FILESYSTEM_ENTRY, removeTempDirs, tempDir, toolText, waitFor } from '../support/index.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string; desktopName: string };
const electronVersion = (JSON.parse(fs.readFileSync(require.resolve('electron/package.json'), 'utf8')) as { version: string }).version;
const asar = require('@electron/asar') as { listPackage(archive: string, options?: object): string[] };
const { getCurrentFuseWire } = require('@electron/fuses') as { getCurrentFuseWire(file: string): Promise<Record<number, number>> };

const STALE = path.join(root, 'dist/electron/stale-output-of-a-removed-source.js');
const INSTALL_DIR = 'opt/MCP Roots Manager';
const EXECUTABLE = 'mcp-roots-manager';

let installed: string;
let debFile: string;
let controlDir: string;
let asarFiles: string[];
const timings: Record<string, number> = {};

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[step] = Date.now() - started;
  }
}

beforeAll(async () => {
  // A leftover from an old build: packing must not ship it.
  fs.mkdirSync(path.dirname(STALE), { recursive: true });
  fs.writeFileSync(STALE, 'export const stale = true;\n');
  await timed('clean build', () => run('npm', ['run', 'build:clean'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }));

  const electronDist = createStandInElectron(path.join(tempDir('electron-stand-in-'), 'dist'), { version: electronVersion });
  const output = tempDir('pack-output-');
  await timed('electron-builder --linux deb', () =>
    run(
      process.execPath,
      [
        require.resolve('electron-builder/cli.js'),
        '--config', 'electron-builder.yml',
        '--linux', 'deb',
        '--publish', 'never',
        `-c.electronDist=${electronDist}`,
        `-c.directories.output=${output}`,
      ],
      {
        cwd: root,
        env: { ...process.env, CUSTOM_FPM_PATH: path.join(root, 'scripts/pack/stand-in-fpm.js') },
        maxBuffer: 64 * 1024 * 1024,
      },
    ),
  );
  debFile = path.join(output, `mcp-roots-manager_${pkg.version}_amd64.deb`);
  installed = tempDir('installed-deb-');
  controlDir = path.join(installed, 'DEBIAN');
  await timed('dpkg-deb -x', async () => {
    await run('dpkg-deb', ['-x', debFile, installed]);
    await run('dpkg-deb', ['-e', debFile, controlDir]);
  });
  asarFiles = asar.listPackage(path.join(installed, INSTALL_DIR, 'resources/app.asar'), { isPack: false });
}, 300_000);

afterAll(() => {
  console.log(`Pack smoke test timings (ms): ${JSON.stringify(timings)}`);
  removeTempDirs();
});

describe('the Linux package', () => {
  it('is a .deb named without spaces, with the app under /opt and its control fields', async () => {
    expect(path.basename(debFile)).toMatch(/^[\w.+-]+$/);
    const control = fs.readFileSync(path.join(controlDir, 'control'), 'utf8');
    expect(control).toMatch(/^Package: mcp-roots-manager$/m);
    expect(control).toMatch(new RegExp(`^Version: ${pkg.version.replaceAll('.', '\\.')}$`, 'm'));
    expect(control).toMatch(/^Architecture: amd64$/m);
    // The OS sandbox needs bubblewrap; pasta (passt) gives network-on servers a network of their own.
    expect(control).toMatch(/^Depends: .*\bbubblewrap\b/m);
    expect(control).toMatch(/^Recommends: .*\bpasst\b/m);
    // nftables holds a server with a list of allowed hosts to it (egress/).
    expect(control).toMatch(/^Recommends: .*\bnftables\b/m);
    expect(fs.statSync(path.join(installed, INSTALL_DIR, EXECUTABLE)).mode & 0o111).not.toBe(0);
    // The postinst links /usr/bin/mcp-roots-manager and installs the AppArmor profile Ubuntu 23.10+ needs.
    const postinst = fs.readFileSync(path.join(controlDir, 'postinst'), 'utf8');
    expect(postinst).toContain(`/opt/MCP Roots Manager/${EXECUTABLE}`);
    expect(postinst).toContain('apparmor_parser');
    expect(fs.existsSync(path.join(installed, INSTALL_DIR, 'resources/apparmor-profile'))).toBe(true);
  });

  it('flips the fuses in the packed executable', async () => {
    const wire = await getCurrentFuseWire(path.join(installed, INSTALL_DIR, EXECUTABLE));
    const state = (index: number) => String.fromCharCode(wire[index] as number);
    // @electron/fuses' V1 order: runAsNode, cookie encryption, NODE_OPTIONS, --inspect, asar
    // integrity, only load from asar, browser V8 snapshot (left as Electron ships it), file:// privileges.
    expect([0, 1, 2, 3, 4, 5, 7].map(state)).toEqual(['0', '1', '0', '0', '1', '1', '0']);
  });

  it('has a desktop entry that starts the installed executable, sandboxed, and matches the window', () => {
    const name = pkg.desktopName;
    const entry = fs.readFileSync(path.join(installed, 'usr/share/applications', name), 'utf8');
    const fields = Object.fromEntries(
      entry
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(entry.split('\n')[0]).toBe('[Desktop Entry]');
    expect(fields).toMatchObject({
      Name: 'MCP Roots Manager',
      Exec: `"/opt/MCP Roots Manager/${EXECUTABLE}" %U`,
      Type: 'Application',
      Terminal: 'false',
      Icon: EXECUTABLE,
      // Electron sets the window's app_id / WM_CLASS from desktopName: the same name.
      StartupWMClass: name.replace(/\.desktop$/, ''),
      Categories: 'Development;',
    });
    expect(entry).not.toContain('--no-sandbox');
    expect(fs.existsSync(path.join(installed, 'usr/share/icons/hicolor/512x512/apps', `${EXECUTABLE}.png`))).toBe(true);
  });

  it('carries the update plan (electron-updater config) but no release channel is contacted', () => {
    const update = fs.readFileSync(path.join(installed, INSTALL_DIR, 'resources/app-update.yml'), 'utf8');
    expect(update).toContain('provider: generic');
    expect(update).toContain('releases.invalid');
  });
});

describe('app.asar', () => {
  const has = (file: string) => asarFiles.includes(file);
  const under = (folder: string) => asarFiles.filter((file) => file === folder || file.startsWith(`${folder}/`));

  it('holds the compiled app and its runtime dependencies', () => {
    for (const file of [
      '/package.json',
      '/dist/electron/main/index.js',
      '/dist/electron/main/desktop-app.js',
      '/dist/electron/cli/main.js',
      '/dist/electron/proxy/run-proxy.js',
      // What the CLI's proxy loads when built (electron/cli/proxy-entry.ts).
      '/dist/proxy-bundle/run-proxy.cjs',
      '/dist/preload/index.cjs',
      '/dist/renderer/index.html',
      '/node_modules/@modelcontextprotocol/client/package.json',
      '/node_modules/zod/package.json',
      '/node_modules/ws/package.json',
      '/node_modules/atomically/package.json',
      '/node_modules/ajv/package.json',
      '/node_modules/electron-updater/package.json',
    ]) {
      expect(has(file), file).toBe(true);
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string };
    expect(has(`/${manifest.main}`)).toBe(true);
  });

  it('unpacks the sandbox helper beside it, where it can run, and it works there', async () => {
    const helper = path.join(installed, INSTALL_DIR, 'resources/app.asar.unpacked/dist/native/mcp-roots-sandbox');
    expect(fs.statSync(helper).mode & 0o111).not.toBe(0);
    // Its probe answers (whether this machine can host a file view is the machine's business).
    const { stdout } = await run(helper, ['probe']).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    expect(JSON.parse(stdout.trim())).toHaveProperty('view');
  });

  it('holds no build-only packages, sources, source maps, type declarations or stale output', () => {
    for (const folder of [
      '/node_modules/react',
      '/node_modules/react-dom',
      '/node_modules/electron',
      '/node_modules/electron-builder',
      '/node_modules/typescript',
      '/node_modules/vite',
      '/node_modules/vitest',
      '/node_modules/zod/src',
      '/electron',
      '/renderer',
      '/shared',
      '/tests',
      '/scripts',
    ]) {
      expect(under(folder), folder).toEqual([]);
    }
    const unwanted = asarFiles.filter((file) => /\.(map|d\.[cm]?ts|[cm]?ts|md)$/.test(file));
    expect(unwanted).toEqual([]);
    expect(has(`/${path.relative(root, STALE)}`)).toBe(false);
    const size = fs.statSync(path.join(installed, INSTALL_DIR, 'resources/app.asar')).size;
    console.log(`app.asar: ${(size / 1024 / 1024).toFixed(1)} MiB, ${asarFiles.length} entries`);
  });
});

describe('"Use with…" from the installed app', () => {
  const configDir = () => path.join(installed, 'registry');
  const executable = () => path.join(installed, INSTALL_DIR, EXECUTABLE);
  /** The installed executable run as a command line, as a terminal or a host would. */
  const app = (...args: string[]) => run(executable(), ['--config-dir', configDir(), ...args]);

  it('writes a host config whose command is the app executable running `proxy`, and that command serves the granted folder', async () => {
    const granted = tempDir('granted-');
    const hostConfig = path.join(tempDir('claude-desktop-'), 'claude_desktop_config.json');
    await app('roots', 'add', granted);
    await app('servers', 'add', 'filesystem', '--command', process.execPath, '--arg', FILESYSTEM_ENTRY);
    await app('grant', 'filesystem', path.basename(granted));
    const written = await app('use-with', 'claude-desktop', 'filesystem', '--file', hostConfig);
    expect(written.stdout).toContain(hostConfig);

    const config = JSON.parse(fs.readFileSync(hostConfig, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[]; env?: object }> };
    const entry = config.mcpServers.filesystem!;
    expect(entry).toEqual({ command: executable(), args: ['proxy', '--config-dir', configDir(), 'filesystem'] });

    // What Claude Desktop does with that entry: start it and speak MCP over its stdio, with no roots of its own.
    const transport = new InPlaceStdioClientTransport({ command: entry.command, args: entry.args, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'rootless-host', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: 15_000 } } });
    try {
      await client.connect(transport);
      await waitFor(
        async () => {
          const seen = allowedDirectories(toolText(await client.callTool({ name: 'list_allowed_directories', arguments: {} })));
          return seen.length === 1 && seen[0] === granted;
        },
        { timeoutMs: 30_000, what: `the proxied server to see ${granted} (stderr: ${stderr.slice(-500)})` },
      );
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
