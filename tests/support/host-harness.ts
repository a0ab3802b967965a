// Starts a RootsHost on a temp config dir and stops it (and every child server) afterwards.
import { RootsHost, type RootsHostOptions } from '../../electron/host/roots-host.js';
import type { TransportConfig } from '../../shared/domain.js';
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

export async function addConnectedServer(host: RootsHost, name: string, transport: TransportConfig): Promise<string> {
  const server = await host.addServer({ name, transport, enabled: true, sharing: true });
  await waitFor(() => host.getState().servers.find((s) => s.id === server.id)?.status.state === 'connected', {
    what: `${name} to connect`,
    timeoutMs: 15_000,
  });
  return server.id;
}

export async function addRoot(host: RootsHost, folder: string): Promise<string> {
  const result = await host.addRoots([folder]);
  const added = result.added[0];
  if (!added) throw new Error(`could not add ${folder}: ${JSON.stringify(result.failed)}`);
  return added.id;
}

export async function callText(host: RootsHost, serverId: string, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  return toolText(await host.callTool(serverId, tool, args));
}
