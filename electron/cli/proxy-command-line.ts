// `mcp-roots [--config-dir DIR] proxy [--roots-policy P] SERVER` is what hosts launch, often ten or
// twenty at once as they start. Building the command table (commander and every command's module)
// cost each proxy ~40 ms of CPU before it could begin, for a command line that needs none of it.
// A line that is plainly a proxy's goes straight to the proxy; anything else (help, an unknown
// option, a missing SERVER, options in other places) goes through the command table as before,
// which keeps its messages and exit codes. `--config-dir` may come after `proxy` too: that is the
// line "use with" writes into a host's config (proxy-launcher.ts), and it missed this path, so
// every proxy a host launched paid for the command table (measured: ~300 ms of CPU per proxy
// instead of ~130 ms on a loaded 2-core machine).

export interface ProxyCommandLine {
  configDirFlag: string | undefined;
  server: string;
  rootsPolicy: 'registry' | 'host';
}

const POLICIES: readonly string[] = ['registry', 'host'];

/** The proxy's arguments when `argv` is plainly a proxy command line, else undefined. */
export function proxyCommandLine(argv: readonly string[]): ProxyCommandLine | undefined {
  let i = 0;
  let configDirFlag: string | undefined;
  const first = argv[0];
  if (first === '--config-dir') {
    configDirFlag = argv[1];
    if (configDirFlag === undefined) return undefined;
    i = 2;
  } else if (first?.startsWith('--config-dir=')) {
    configDirFlag = first.slice('--config-dir='.length);
    i = 1;
  }
  if (argv[i] !== 'proxy') return undefined;
  let server: string | undefined;
  let rootsPolicy = 'registry';
  for (i++; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--config-dir' || arg.startsWith('--config-dir=')) {
      // Given twice: the command table says what it makes of that.
      if (configDirFlag !== undefined) return undefined;
      configDirFlag = arg === '--config-dir' ? argv[++i] : arg.slice('--config-dir='.length);
      if (configDirFlag === undefined) return undefined;
    } else if (arg === '--roots-policy') {
      const value = argv[++i];
      if (value === undefined) return undefined;
      rootsPolicy = value;
    } else if (arg.startsWith('--roots-policy=')) {
      rootsPolicy = arg.slice('--roots-policy='.length);
    } else if (arg.startsWith('-') || server !== undefined) {
      return undefined;
    } else {
      server = arg;
    }
  }
  if (server === undefined || !POLICIES.includes(rootsPolicy)) return undefined;
  return { configDirFlag, server, rootsPolicy: rootsPolicy as ProxyCommandLine['rootsPolicy'] };
}
