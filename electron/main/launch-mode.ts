// What the app's executable was asked to do: open the desktop app, or run the `mcp-roots` command
// line. An installed app has no Node of its own to run bin/mcp-roots.js with (the runAsNode fuse
// is off), so a host's config starts `<app executable> proxy SERVER` and this decides it.
// Plain data in, plain data out: no Electron, so the packed app's entry can run it first.

/** What follows the program on its command line (`electron .` also puts the app folder first). */
export function appArguments(argv: readonly string[], defaultApp: boolean | undefined): string[] {
  return argv.slice(defaultApp ? 2 : 1);
}

/**
 * The command line to run, or undefined to open the window. The window takes only switches
 * (`--config-dir DIR` and Chromium's own, such as macOS's `-psn_…`), so the first word that is not
 * a switch or `--config-dir`'s value asks for a command; so do `--help` and `--version`.
 */
export function commandLineArguments(args: readonly string[]): string[] | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--config-dir') {
      index++;
      continue;
    }
    if (arg === '--help' || arg === '-h' || arg === '--version' || !arg.startsWith('-')) return [...args];
  }
  return undefined;
}
