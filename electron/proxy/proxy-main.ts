// Stand-alone entry of the proxy: `node proxy-main.js [--config-dir DIR] [--roots-policy P] SERVER`.
// The CLI wires the same runProxy as `mcp-roots proxy`; tests spawn this file directly.
import { parseArgs } from 'node:util';
import { resolveConfigDir } from '../host/registry/config-dir.js';
import { runProxy } from './run-proxy.js';

export const PROXY_USAGE = 'Usage: mcp-roots [--config-dir DIR] proxy [--roots-policy registry|host] SERVER';

export async function proxyMain(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { 'config-dir': { type: 'string' }, 'roots-policy': { type: 'string', default: 'registry' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${PROXY_USAGE}\n`);
    return 2;
  }
  const { values } = parsed;
  // `proxy-main.js proxy SERVER` works too: the same argv a host config holds for `mcp-roots proxy SERVER`.
  const positionals = parsed.positionals[0] === 'proxy' ? parsed.positionals.slice(1) : parsed.positionals;
  const policy = values['roots-policy'];
  if (positionals.length !== 1 || (policy !== 'registry' && policy !== 'host')) {
    process.stderr.write(`${PROXY_USAGE}\n`);
    return 2;
  }
  return runProxy({ configDir: resolveConfigDir(values['config-dir']), server: positionals[0] as string, rootsPolicy: policy });
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  // Exit only once stdout is drained: the last responses must reach the host.
  proxyMain(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
}
