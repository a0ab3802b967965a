// What the app's executable was asked to do: open the desktop app, or run the `mcp-roots` command
// line. An installed app has no Node of its own to run bin/mcp-roots.js with (the runAsNode fuse
// is off), so a host's config starts `<app executable> proxy SERVER` and this decides it.
// Plain data in, plain data out: no Electron, so the packed app's entry can run it first.

/**
 * What follows the program on its command line, for the app. Run as `electron [switches] <app
 * folder> [args]` (development, Playwright), Electron's default app takes the first word that is
 * not a switch as the app folder (its --require/-r take a value): that word is not ours.
 */
export function appArguments(argv: readonly string[], defaultApp: boolean | undefined): string[] {
  const rest = argv.slice(1);
  if (!defaultApp) return rest;
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] as string;
    if (arg === '--require' || arg === '-r') index++;
    else if (!arg.startsWith('-')) return [...rest.slice(0, index), ...rest.slice(index + 1)];
  }
  return [];
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
