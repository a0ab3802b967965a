// Where `mcp-roots proxy` gets its code. The built CLI loads the proxy as one bundle,
// dist/proxy-bundle/run-proxy.cjs (vite.proxy.config.ts, part of `npm run build:node`), with V8's
// code cache kept in the data folder (cached-bundle.ts): hosts start proxies ten or twenty at once,
// and loading the ~370 modules one by one cost each proxy about twice the CPU of loading one file,
// and compiling that file again at each start ~30 ms more. The sources (tests under tsx or vitest)
// load the modules as they are.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCachedBundle } from './cached-bundle.js';

type RunProxyModule = typeof import('../proxy/run-proxy.js');

export const PROXY_BUNDLE = new URL('../../proxy-bundle/run-proxy.cjs', import.meta.url);

/** `configDir`: where the code cache is kept (`<configDir>/cache/`); without it, no cache. */
export async function loadRunProxy(from: string = import.meta.url, configDir?: string): Promise<RunProxyModule> {
  if (!from.endsWith('.js')) return import('../proxy/run-proxy.js');
  // Built: the bundle is part of the same build, so its absence is a broken build, said as such.
  const bundle = fileURLToPath(new URL('../../proxy-bundle/run-proxy.cjs', from));
  if (!fs.existsSync(bundle)) {
    throw new Error(`The proxy's bundle is missing (${bundle}): run \`npm run build:node\`.`);
  }
  return loadCachedBundle(bundle, configDir === undefined ? undefined : path.join(configDir, 'cache')).exports as RunProxyModule;
}
