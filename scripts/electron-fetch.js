// Fetches Electron's binary the first time `npm start` needs it. The electron package (45+) has no
// install script: it downloads on first use, from `require('electron')`, synchronously and with no
// time limit. This does the same download with electron's own tools, bounded: @electron/get puts
// the zip in its cache (progress shown; a host that does not answer, or a download that stalls, is
// given up after a while instead of hanging), then electron's install.js unzips it from that cache
// and writes path.txt exactly as a first use would.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * How long (ms) a download may wait: for the first byte of the answer (lookup, connect, TLS,
 * redirects included), and between two chunks once bytes flow. A slow download that keeps moving
 * is never cut off.
 */
export const DEFAULT_TIMEOUTS = { firstByte: 30_000, stall: 30_000 };

/** The installed electron package (its install.js, checksums.json and version). */
export function electronPackageDir() {
  return path.dirname(require.resolve('electron/package.json'));
}

/**
 * Downloads and unpacks the binary. Resolves with the version; rejects with an Error whose message
 * says what failed in one line (no stack), ready to show. Mirrors and the cache follow electron's
 * own variables (ELECTRON_MIRROR, electron_config_cache…), read by @electron/get itself.
 * @param {{ electronDir?: string, timeouts?: Partial<typeof DEFAULT_TIMEOUTS>, progress?: (event: { line: string, percent: number, final: boolean }) => void }} [options]
 */
export async function fetchElectronBinary(options = {}) {
  const electronDir = options.electronDir ?? electronPackageDir();
  const fromElectron = createRequire(path.join(electronDir, 'package.json'));
  const { version } = fromElectron('./package.json');
  const { downloadArtifact, FetchDownloader } = await import(pathToFileURL(fromElectron.resolve('@electron/get')).href);
  const report = progressReporter(version, options.progress ?? (() => {}));
  const downloader = new BoundedDownloader(new FetchDownloader(), { ...DEFAULT_TIMEOUTS, ...options.timeouts }, report);
  const env = process.env;
  try {
    // The same artifact, checksums and cache as electron's install.js, so that it finds this zip.
    await downloadArtifact({
      version,
      artifactName: 'electron',
      cacheRoot: env.electron_config_cache,
      checksums: env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums ? undefined : fromElectron('./checksums.json'),
      ...target(env),
      downloader,
      downloadOptions: { quiet: true },
    });
  } catch (error) {
    throw new Error(`could not download Electron ${version}: ${describe(error, downloader.url)}`, { cause: error });
  }
  report.done();
  await unpack(electronDir, env);
  return version;
}

/** @electron/get's own downloader, given up on when the host is silent for too long. */
class BoundedDownloader {
  /** The URL of the last download, for messages. */
  url = undefined;

  constructor(inner, timeouts, onProgress) {
    this.inner = inner;
    this.timeouts = timeouts;
    this.onProgress = onProgress;
  }

  async download(url, targetFilePath, options = {}) {
    this.url = url;
    const controller = new AbortController();
    let timer;
    const wait = (ms, what) => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new Error(`${what} within ${ms / 1000} s`)), ms);
    };
    wait(this.timeouts.firstByte, 'no answer');
    try {
      await this.inner.download(url, targetFilePath, {
        ...options,
        signal: controller.signal,
        getProgressCallback: async (progress) => {
          wait(this.timeouts.stall, 'the download stalled: no data');
          this.onProgress(progress);
        },
      });
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Platform and arch as electron's install.js picks them (its overrides, npm's, Rosetta on a Mac). */
function target(env) {
  const platform = env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform;
  let arch = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || process.arch;
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
    if (!progress.total) return;
    total = progress.total;
    const percent = Math.floor(progress.percent * 100);
    if (percent === shown) return;
    shown = percent;
    emit({ line: `Downloading Electron ${version}: ${percent}% of ${megabytes(total)}`, percent, final: false });
  };
  report.done = () => emit({ line: `Downloaded Electron ${version}${total ? ` (${megabytes(total)})` : ''}.`, percent: 100, final: true });
  return report;
}

const megabytes = (bytes) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** One line for a person: what went wrong, its cause (fetch hides the network error there), and where. */
function describe(error, url) {
  const cause = error?.cause;
  // "getaddrinfo ENOTFOUND github.com", "connect ECONNREFUSED 127.0.0.1:9000"; an AggregateError has only its code.
  const network = cause?.message || cause?.code;
  const text = firstLine(error?.message === 'fetch failed' && network ? network : (error?.message ?? String(error)));
  return url && !text.includes(url) ? `${text} (${url})` : text;
}

const firstLine = (text) => String(text).trim().split('\n')[0] ?? '';
