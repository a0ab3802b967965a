#!/usr/bin/env node
// `mcp-roots`: the command line over the same registry the app uses. A running app or
// `mcp-roots serve` notices these edits through its file watch and tells its servers.
import { CliContext, processIo, type CliIo } from './cli-context.js';
import { loadRunProxy } from './proxy-entry.js';
import { proxyCommandLine } from './proxy-command-line.js';
import { startMark } from '../host/sandbox/start-marks.js';

/** Runs one command line; resolves with the exit code (0 ok, 1 failure, 2 usage). */
export async function main(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const context = new CliContext({ ...processIo(), ...io });
  // What hosts launch, many at once: straight to the proxy, without building the command table.
  const proxy = proxyCommandLine(argv);
  if (proxy) {
    context.configDirFlag = proxy.configDirFlag;
    startMark('cli');
    const configDir = context.configDir();
    const { runProxy } = await loadRunProxy(undefined, configDir);
    startMark('bundle');
    return runProxy({ configDir, server: proxy.server, rootsPolicy: proxy.rootsPolicy });
  }
  const { runCommandTable } = await import('./command-table.js');
  return runCommandTable(argv, context);
}

// Run when executed directly (the bin shim imports this file and calls main itself).
const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  // Exit only once stdout is drained: a proxy's last responses must reach its host.
  main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
}
