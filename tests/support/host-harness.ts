// Starts a RootsHost on a temp config dir and stops it (and every child server) afterwards; opens
// one-shot registry editors that stand in for another process (the CLI, another window).
import { dispatch as dispatchWith, hostHandlers, type ContractHandlers } from '../../electron/host/contract-handlers.js';
import { RegistryEditor } from '../../electron/host/registry/registry-commands.js';
import { RootsHost, type RootsHostOptions } from '../../electron/host/roots-host.js';
import { importHandlers } from '../../electron/import/import-handlers.js';
import path from 'node:path';
import type { StdioTransportConfig, TransportConfig } from '../../shared/domain.js';
import { countingWrapper } from './mcp-servers.js';
import { tempDir } from './temp-dirs.js';
import { toolText, waitFor } from './index.js';

const running: RootsHost[] = [];

export async function startHost(options: Partial<RootsHostOptions> = {}): Promise<RootsHost> {
  const host = new RootsHost({ configDir: tempDir('mcp-roots-config-'), stateThrottleMs: 0, ...options });
  running.push(host);
  await host.start();
  return host;
}

export async function stopHosts(): Promise<void> {
  await Promise.all(running.splice(0).map((host) => host.stop()));
}

/** Edits a registry the way another process would (its own one-writer queue), then lets go of it. */
export async function editRegistry<T>(configDir: string, edit: (editor: RegistryEditor) => Promise<T>): Promise<T> {
  const editor = await RegistryEditor.open(configDir);
  try {
    return await edit(editor);
  } finally {
    await editor.close();
  }
}

/** Every channel, as the shells wire them. */
const handlers: ContractHandlers = { ...hostHandlers, ...importHandlers };

export function dispatch(host: RootsHost, channel: unknown, payload: unknown) {
  return dispatchWith(handlers, host, channel, payload);
}

export async function addConnectedServer(host: RootsHost, name: string, transport: TransportConfig): Promise<string> {
  const server = await host.addServer({ name, transport, enabled: true, sharing: true });
  await waitFor(() => host.getState().servers.find((s) => s.id === server.id)?.status.state === 'connected', {
    what: `${name} to connect`,
    timeoutMs: 15_000,
  });
  return server.id;
}

export async function addRoot(host: { addRoots(paths: string[]): Promise<{ added: { id: string }[]; failed: unknown[] }> }, folder: string): Promise<string> {
  const result = await host.addRoots([folder]);
  const added = result.added[0];
  if (!added) throw new Error(`could not add ${folder}: ${JSON.stringify(result.failed)}`);
  return added.id;
}

export async function callText(host: RootsHost, serverId: string, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  return toolText(await host.callTool(serverId, tool, args));
}

/**
 * A server wrapped to record each start in a count file (tests/fixtures/count-spawns.mjs). The
 * wrapper runs inside the server's sandbox, so the count file's folder is granted to it read-write
 * before its first start: the server is added disabled, granted, then enabled.
 */
export async function addCountedServer(host: RootsHost, name: string, inner: StdioTransportConfig): Promise<{ id: string; countFile: string }> {
  const countDir = tempDir('starts-');
  const countFile = path.join(countDir, 'starts');
  const rootId = await addRoot(host, countDir);
  const server = await host.addServer({ name, transport: countingWrapper(inner, countFile), enabled: false, sharing: true });
  await host.setGrants([server.id], [rootId], true, 'read-write');
  await host.setEnabled(server.id, true);
  return { id: server.id, countFile };
}
