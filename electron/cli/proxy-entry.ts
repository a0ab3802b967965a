// Where `mcp-roots proxy` gets its code. The built CLI loads the proxy as one bundled file,
// dist/proxy-bundle/run-proxy.js (vite.proxy.config.ts, part of `npm run build:node`): hosts start
// proxies ten or twenty at once, and loading the ~370 modules one by one cost each proxy about twice
// the CPU of loading one file. The sources (tests under tsx or vitest) load the modules as they are.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

type RunProxyModule = typeof import('../proxy/run-proxy.js');

export const PROXY_BUNDLE = new URL('../../proxy-bundle/run-proxy.js', import.meta.url);

export async function loadRunProxy(from: string = import.meta.url): Promise<RunProxyModule> {
  if (!from.endsWith('.js')) return import('../proxy/run-proxy.js');
  // Built: the bundle is part of the same build, so its absence is a broken build, said as such.
  if (!fs.existsSync(fileURLToPath(PROXY_BUNDLE))) {
    throw new Error(`The proxy's bundle is missing (${fileURLToPath(PROXY_BUNDLE)}): run \`npm run build:node\`.`);
  }
  return (await import(PROXY_BUNDLE.href)) as RunProxyModule;
}
