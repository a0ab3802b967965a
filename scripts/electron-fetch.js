// Fetches Electron's binary the first time `npm start` needs it. `npm install` does not: package.json's
// allowScripts denies the electron package its install script, so an install succeeds where
// Electron's download host cannot be reached. This uses electron's own tools: @electron/get
// downloads the zip into its cache (with progress, and timeouts so that an unreachable host fails
// in seconds instead of hanging), then electron's install.js unzips it from that cache and writes
// path.txt exactly as an install-time download would.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Per phase of each request (ms). A slow download that keeps moving is never cut off: `socket` is
 * the longest silence allowed while bytes flow, `response` the wait for the first byte.
 */
export const DEFAULT_TIMEOUTS = { lookup: 10_000, connect: 10_000, secureConnect: 10_000, response: 30_000, socket: 30_000 };

/** The installed electron package (its install.js, checksums.json and version). */
export function electronPackageDir() {
  return path.dirname(require.resolve('electron/package.json'));
}

/**
 * Downloads and unpacks the binary. Resolves with the version; rejects with an Error whose message
 * says what failed in one line (no stack), ready to show.
 * Mirrors and the cache follow electron's own variables (ELECTRON_MIRROR, electron_config_cache…),
 * read from process.env by @electron/get itself.
 * @param {{ electronDir?: string, timeouts?: Partial<typeof DEFAULT_TIMEOUTS>, progress?: (event: { line: string, percent: number, final: boolean }) => void }} [options]
 */
export async function fetchElectronBinary(options = {}) {
  const electronDir = options.electronDir ?? electronPackageDir();
  const env = process.env;
  const fromElectron = createRequire(path.join(electronDir, 'package.json'));
  const { version } = fromElectron('./package.json');
  const { downloadArtifact } = fromElectron('@electron/get');
  const { platform, arch } = target(env);
  const timeout = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const progress = options.progress ?? (() => {});
  const report = progressReporter(version, progress);
  try {
    // The same artifact, checksums and cache as electron's install.js, so that it finds this zip.
    await downloadArtifact({
      version,
      artifactName: 'electron',
      cacheRoot: env.electron_config_cache,
      checksums: env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums ? undefined : fromElectron('./checksums.json'),
      platform,
      arch,
      downloadOptions: { quiet: true, timeout, retry: 0, getProgressCallback: report },
    });
  } catch (error) {
    throw new Error(`could not download Electron ${version}: ${describe(error)}`, { cause: error });
  }
  report.done();
  await unpack(electronDir, env);
  return version;
}

/** Platform and arch as electron's install.js picks them (npm_config_* overrides, Rosetta on a Mac). */
function target(env) {
  const platform = env.npm_config_platform || process.platform;
  let arch = env.npm_config_arch || process.arch;
  if (platform === 'darwin' && process.platform === 'darwin' && arch === 'x64' && env.npm_config_arch === undefined) {
    try {
      if (execFileSync('sysctl', ['-in', 'sysctl.proc_translated']).toString().trim() === '1') arch = 'arm64';
    } catch {
      // Not under Rosetta (or no sysctl): keep x64, as install.js does.
    }
  }
  return { platform, arch };
}

/** electron's own install.js, now served from the cache: it unzips and writes path.txt. */
function unpack(electronDir, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(electronDir, 'install.js')], {
      cwd: electronDir,
      env: { ...env, ELECTRON_GET_NO_PROGRESS: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => reject(new Error(`could not run electron's install.js: ${error.message}`)));
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`electron's install.js could not unpack the download (exit ${code}): ${firstLine(stderr)}`));
    });
  });
}

/** Progress as whole percents: each new one once, and a final line. */
function progressReporter(version, emit) {
  let shown = -1;
  let total = 0;
  const report = (progress) => {
    total = progress.total ?? total;
    const percent = Math.floor((progress.percent ?? 0) * 100);
    if (percent === shown || !progress.total) return;
    shown = percent;
    emit({ line: `Downloading Electron ${version}: ${percent}% of ${megabytes(progress.total)}`, percent, final: false });
  };
  report.done = () => emit({ line: `Downloaded Electron ${version}${total ? ` (${megabytes(total)})` : ''}.`, percent: 100, final: true });
  return report;
}

const megabytes = (bytes) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** One line for a person: what went wrong and where (got's errors carry the URL they were fetching). */
function describe(error) {
  const url = error?.options?.url?.href ?? error?.response?.url;
  const text = firstLine(error?.message ?? String(error));
  return url && !text.includes(url) ? `${text} (${url})` : text;
}

const firstLine = (text) => String(text).trim().split('\n')[0] ?? '';
