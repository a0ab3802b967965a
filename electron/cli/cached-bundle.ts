// Loads the proxy's bundle (CommonJS files, vite.proxy.config.ts) with V8's code cache: the compiled
// code of the last start, kept in the data folder, so a start does not parse and compile ~1 MB of
// JavaScript again. Hosts start ten or twenty proxies at once; compiling the bundle was ~30 ms of
// each one's CPU (BENCHMARKS.md section 12). Node 22 has this built in (module.enableCompileCache);
// Node 20, which we support, has it only through vm.Script.
//
// The cache is advice, never trusted for correctness: V8 checks it against this very source, this
// Node and its flags, and rejects anything else (then the code is compiled as without it, and a new
// cache is written). A file that cannot be read or written only costs the compile.
import crypto from 'node:crypto';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

export type CacheUse = 'used' | 'made' | 'none';

interface Compiled {
  file: string;
  script: vm.Script;
  cacheFile: string | undefined;
  accepted: boolean;
}

/**
 * Runs `entry` (and the chunks it requires from its own folder) as CommonJS, each compiled with its
 * cache from `cacheDir` when there is one. The caches missing or rejected are written once the
 * process has run a while (its start's functions compiled too) or when it exits.
 */
export function loadCachedBundle(entry: string, cacheDir: string | undefined): { exports: unknown; cache: () => CacheUse } {
  const dir = path.dirname(entry);
  const compiled = new Map<string, Compiled>();
  const outer = createRequire(entry);
  const load = (file: string): unknown => {
    const source = fs.readFileSync(file, 'utf8');
    const cacheFile = cacheDir ? path.join(cacheDir, `${path.basename(file)}-${keyOf(file)}.v8`) : undefined;
    const cachedData = cacheFile ? readOrNothing(cacheFile) : undefined;
    const script = new vm.Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
    compiled.set(file, { file, script, cacheFile, accepted: cachedData !== undefined && !script.cachedDataRejected });
    const module = { exports: {} as unknown };
    const own = (id: string) => (id.startsWith('./') && id.endsWith('.cjs') ? load(path.join(dir, id)) : outer(id));
    (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, own, module, file, dir);
    return module.exports;
  };
  const exports = load(entry);
  if (cacheDir && [...compiled.values()].some((one) => !one.accepted)) {
    const write = () => writeCaches(cacheDir, compiled);
    // After the start (its functions compiled since are in the cache too), or at the end of a short life.
    setTimeout(write, 3000).unref();
    process.once('exit', write);
  }
  const all = [...compiled.values()];
  return { exports, cache: () => (all.every((one) => one.accepted) ? 'used' : cacheDir ? 'made' : 'none') };
}

function writeCaches(cacheDir: string, compiled: Map<string, Compiled>): void {
  for (const one of compiled.values()) {
    if (one.accepted || !one.cacheFile) continue;
    one.accepted = true;
    try {
      fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
      const temp = `${one.cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(temp, one.script.createCachedData(), { mode: 0o600 });
      fs.renameSync(temp, one.cacheFile);
    } catch {
      // A read-only or full data folder: the next start compiles, as without a cache.
    }
  }
}

/**
 * Which file and Node the cache was made from. V8 checks the Node and the source's length, not its
 * content: the file's identity and time say a rebuilt or reinstalled bundle is another one (hashing
 * its megabyte would cost a good part of what the cache saves).
 */
function keyOf(file: string): string {
  const stat = fs.statSync(file);
  return crypto.createHash('sha256').update(`${process.version}\0${process.arch}\0${file}\0${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`).digest('hex').slice(0, 16);
}

function readOrNothing(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}
