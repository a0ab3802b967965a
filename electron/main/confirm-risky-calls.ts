// Three IPC calls could turn a compromised page into code execution or a clobbered file: a stdio
// server with a launch line the registry does not hold yet (the app would run it), "Use with…"
// writing a file that is not one of the hosts' known configs, and a grant's opt-in that leaves more
// protected names (git hooks, editor tasks, shell rc files) writable by a server. Before any runs,
// the person confirms it in a native dialog, which the page can neither draw nor click. Everything
// else passes straight through.
import path from 'node:path';
import { dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import { contract, type Channel } from '../../shared/contract.js';
import type { Registry, StdioTransportConfig, TransportConfig } from '../../shared/domain.js';
import { HOST_LABELS, type HostKind } from '../../shared/import-types.js';
import { optInProblem } from '../../shared/protected-names.js';
import { fail, type Result } from '../../shared/result.js';
import { unmaskTransport } from '../../shared/secrets.js';
import { parseRootInput } from '../host/registry/file-uri.js';
import { configLocations } from '../import/config-locations.js';

export type RiskyCall =
  | { kind: 'new-command'; server: string; transport: StdioTransportConfig }
  | { kind: 'unknown-file'; file: string; host: HostKind }
  /** `names`: only those not opted in already; `readOnly`: the grant is read-only for now. */
  | { kind: 'writable-names'; server: string; folder: string; names: string[]; readOnly: boolean };

/** Runs before dispatch: a failure Result stops the call, undefined lets it through. */
export type CallConfirmation = (channel: Channel, payload: unknown) => Promise<Result<never> | undefined>;

/** What about this call needs the person's yes, if anything. Pure: the registry is passed in. */
export function riskOf(channel: Channel, payload: unknown, registry: Registry): RiskyCall | undefined {
  if (channel === 'servers.add') {
    const parsed = contract['servers.add'].input.safeParse(payload ?? {});
    if (!parsed.success || parsed.data.transport.type !== 'stdio') return undefined;
    return isKnownLaunch(parsed.data.transport, registry) ? undefined : { kind: 'new-command', server: parsed.data.name, transport: parsed.data.transport };
  }
  if (channel === 'servers.update') {
    const parsed = contract['servers.update'].input.safeParse(payload ?? {});
    const next = parsed.success ? parsed.data.patch.transport : undefined;
    if (!parsed.success || next?.type !== 'stdio') return undefined;
    const previous = registry.servers.find((server) => server.id === parsed.data.serverId);
    // A mask sent back means "keep the stored value": compare what would really run.
    const transport = unmaskTransport(next, previous?.transport) as StdioTransportConfig;
    if (isKnownLaunch(transport, registry)) return undefined;
    return { kind: 'new-command', server: parsed.data.patch.name ?? previous?.name ?? parsed.data.serverId, transport };
  }
  if (channel === 'useWith.apply') {
    const parsed = contract['useWith.apply'].input.safeParse(payload ?? {});
    // No file: the host picks the host's own config. A workspace: one of its known config files.
    if (!parsed.success || parsed.data.file === undefined) return undefined;
    let file: string;
    try {
      file = parseRootInput(parsed.data.file);
    } catch {
      return undefined;
    }
    return isKnownHostConfig(parsed.data.host, file) ? undefined : { kind: 'unknown-file', file, host: parsed.data.host };
  }
  if (channel === 'grants.setWritable') {
    const parsed = contract['grants.setWritable'].input.safeParse(payload ?? {});
    // Names that are not protected ones: the edit refuses the whole call, whatever the registry.
    if (!parsed.success || optInProblem(parsed.data.names) !== undefined) return undefined;
    const { serverId, rootId, names } = parsed.data;
    const server = registry.servers.find((s) => s.id === serverId);
    const already = server?.writableByChoice?.[rootId] ?? [];
    // Removing names narrows what the server may write: no question. Adding any widens it.
    const added = names.filter((name) => !already.includes(name));
    if (added.length === 0) return undefined;
    // Asked even when this snapshot lacks the server or grant: a grant queued just before would be there when the edit runs.
    const root = registry.roots.find((r) => r.id === rootId);
    return {
      kind: 'writable-names',
      server: server?.name ?? serverId,
      folder: root?.path ?? rootId,
      names: added,
      readOnly: registry.grants[serverId]?.[rootId] === 'read-only',
    };
  }
  return undefined;
}

/** The exact launch (command, arguments, folder, environment) of a server already in the registry. */
export function isKnownLaunch(transport: StdioTransportConfig, registry: Pick<Registry, 'servers'>): boolean {
  return registry.servers.some(({ transport: known }) => isSameLaunch(known, transport));
}

function isSameLaunch(known: TransportConfig, next: StdioTransportConfig): boolean {
  if (known.type !== 'stdio' || known.command !== next.command || (known.cwd ?? '') !== (next.cwd ?? '')) return false;
  if (known.args.length !== next.args.length || known.args.some((arg, index) => arg !== next.args[index])) return false;
  const keys = Object.keys(next.env);
  // The environment counts: NODE_OPTIONS or LD_PRELOAD change what a known command runs.
  return keys.length === Object.keys(known.env).length && keys.every((key) => known.env[key] === next.env[key]);
}

/** A user config of that host, or a workspace config of that host in the file's own folder. */
export function isKnownHostConfig(host: HostKind, file: string, platform: NodeJS.Platform = process.platform): boolean {
  const p = platform === 'win32' ? path.win32 : path.posix;
  // .mcp.json sits in the workspace; .vscode/mcp.json and .cursor/mcp.json one level down.
  const workspaces = [p.dirname(file), p.dirname(p.dirname(file))];
  return configLocations({ platform, workspaces }).some((source) => source.host === host && source.path === file);
}

export function confirmationDialog(risk: RiskyCall): MessageBoxOptions {
  const common = { type: 'warning' as const, defaultId: 0, cancelId: 0, noLink: true, title: 'MCP Roots Manager' };
  if (risk.kind === 'new-command') {
    const { command, args, cwd, env } = risk.transport;
    const envNames = Object.keys(env);
    return {
      ...common,
      buttons: ['Cancel', 'Allow'],
      message: `Allow MCP Roots Manager to run this program for "${risk.server}"?`,
      detail: [
        [command, ...args].map(quoteForDisplay).join(' '),
        ...(cwd ? [`In: ${cwd}`] : []),
        ...(envNames.length > 0 ? [`Environment: ${envNames.join(', ')} (values not shown)`] : []),
        '',
        'The app starts it with your permissions. Allow only a command you entered or trust.',
      ].join('\n'),
    };
  }
  if (risk.kind === 'writable-names') {
    return {
      ...common,
      buttons: ['Cancel', 'Leave writable'],
      message: `Let "${risk.server}" change these protected paths in ${risk.folder}?`,
      detail: [
        ...risk.names,
        '',
        'Your tools run these files later (git hooks, editor tasks, agent and shell configs), so the server could make them run its code as you.',
        ...(risk.readOnly ? ['The folder is read-only for this server now: this takes effect if you make it read-write.'] : []),
        'Allow this only if you chose these paths for this server.',
      ].join('\n'),
    };
  }
  return {
    ...common,
    buttons: ['Cancel', 'Write'],
    message: `Write the ${HOST_LABELS[risk.host]} configuration to a file that is not one of its usual places?`,
    detail: `${risk.file}\n\nA backup of the current file is kept next to it. Allow this only if you chose this file.`,
  };
}

/** The confirmation the desktop app puts in front of its contract handlers. */
export function confirmRiskyCalls(
  registry: () => Registry,
  getWindow: () => BrowserWindow | undefined,
  show: (window: BrowserWindow | undefined, options: MessageBoxOptions) => Promise<{ response: number }> = showMessageBox,
): CallConfirmation {
  return async (channel, payload) => {
    const risk = riskOf(channel, payload, registry());
    if (risk === undefined) return undefined;
    let response: number;
    try {
      ({ response } = await show(getWindow(), confirmationDialog(risk)));
    } catch (error) {
      // No dialog, no yes.
      return fail('internal', `Could not ask for confirmation: ${(error as Error).message}`);
    }
    if (response === 1) return undefined;
    return fail('unauthorized', REFUSED[risk.kind]);
  };
}

const REFUSED: Record<RiskyCall['kind'], string> = {
  'new-command': 'You did not allow this command; nothing was changed.',
  'unknown-file': 'You did not allow writing this file; nothing was written.',
  'writable-names': 'You did not allow leaving these paths writable; nothing was changed.',
};

function showMessageBox(window: BrowserWindow | undefined, options: MessageBoxOptions): Promise<{ response: number }> {
  return window && !window.isDestroyed() ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options);
}

function quoteForDisplay(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
