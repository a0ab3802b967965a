// `<app executable> proxy SERVER` and every other `mcp-roots` command, run inside the installed app.
// Nothing of the desktop app starts: no single-instance lock (a host may run many proxies while the
// window is open), no window, no tray. Electron's main process does not end when its work is done,
// so the exit is explicit, after stdout is drained (a proxy's last answers must reach its host).

export interface CommandLineDeps {
  main(args: string[]): Promise<number>;
  exit(code: number): void;
  stdout: NodeJS.WritableStream;
  platform: NodeJS.Platform;
  /** macOS shows a Dock icon for any process of an app bundle until told otherwise. */
  hideDock(): Promise<void>;
}

export async function runCommandLine(args: string[], deps?: Partial<CommandLineDeps>): Promise<void> {
  const { main, exit, stdout, platform, hideDock } = { ...defaultDeps(), ...deps };
  if (platform === 'darwin') await hideDock().catch(() => undefined);
  let code: number;
  try {
    code = await (main ?? (await loadCliMain()))(args);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
  await new Promise<void>((resolve) => stdout.write('', () => resolve()));
  exit(code);
}

function defaultDeps(): Omit<CommandLineDeps, 'main'> & { main?: CommandLineDeps['main'] } {
  return {
    exit: (code) => process.exit(code),
    stdout: process.stdout,
    platform: process.platform,
    hideDock: async () => {
      const { app } = await import('electron');
      app.dock?.hide();
    },
  };
}

async function loadCliMain(): Promise<CommandLineDeps['main']> {
  const cli = await import('../cli/main.js');
  return (args) => cli.main(args);
}
