// A host in front of `mcp-roots proxy`: the SDK client spawning the proxy (run from source, or the
// built command with its bundled proxy) as its stdio server. No roots capability unless a test gives it one; the era it speaks is the test's choice.
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import { CLI_BIN, ensureBuilt } from './cli.js';
import { descendantsOf, isRunning } from './child-process.js';
import { waitFor } from './wait-for.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
export const PROXY_ENTRY = path.join(repoRoot, 'electron/proxy/proxy-main.ts');

export interface ProxiedClientOptions {
  capabilities?: Record<string, unknown>;
  roots?: string[];
  onRootsAsked?: () => void;
  /** 'auto' (default): a 2026-era host that falls back to 2025; 'legacy': a 2025-era host. */
  era?: 'auto' | 'legacy';
  name?: string;
  /** 'source' (default): proxy-main.ts through tsx; 'built': `node bin/mcp-roots.js proxy`, as hosts run it. */
  entry?: 'source' | 'built';
  /** Variables the proxy gets over the SDK's default environment, which passes only a few (no D-Bus address: no keychain). */
  env?: Record<string, string>;
}

const open: { client: Client; stderr: () => string; pid: number | undefined }[] = [];

export async function proxiedClient(configDir: string, server: string, options: ProxiedClientOptions = {}): Promise<Client> {
  if (options.entry === 'built') await ensureBuilt();
  const transport = new InPlaceStdioClientTransport({
    command: process.execPath,
    args: options.entry === 'built' ? [CLI_BIN, '--config-dir', configDir, 'proxy', server] : ['--import', 'tsx', PROXY_ENTRY, '--config-dir', configDir, server],
    cwd: repoRoot,
    ...(options.env ? { env: { ...getDefaultEnvironment(), ...options.env } } : {}),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client(
    { name: options.name ?? 'test-host', version: '1.0.0' },
    // A generous probe: under test load the proxy (run through tsx) may take seconds to start, and
    // a timed-out probe would quietly fall back to the 2025 handshake.
    {
      capabilities: options.capabilities ?? {},
      versionNegotiation: options.era === 'legacy' ? { mode: 'legacy' } : { mode: 'auto', probe: { timeoutMs: 15_000 } },
    },
  );
  if (options.roots) {
    const roots = options.roots.map((folder) => ({ uri: pathToFileURL(folder).href }));
    client.setRequestHandler('roots/list', async () => {
      options.onRootsAsked?.();
      return { roots };
    });
  }
  try {
    await client.connect(transport);
  } catch (error) {
    // The proxy lives on after a refused handshake (the transport keeps it for another one), retrying
    // its server and writing under the config folder: it ends before the test goes on, or the test's
    // cleanup races it (ENOTEMPTY in proxy-refusals, in CI).
    // The SDK closed the transport already (its pid is null now): the one it spawned, by spawnedPid.
    await endProxy(transport.spawnedPid, () => transport.close());
    throw new Error(`${(error as Error).message}; proxy stderr: ${stderr}`, { cause: error });
  }
  open.push({ client, stderr: () => stderr, pid: transport.pid ?? undefined });
  return client;
}

/** Stops a process and waits until it is gone (SIGTERM, then SIGKILL after 10 s). */
async function ended(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(pid, 'SIGTERM');
  await waitFor(() => !alive(), { what: `the proxy (pid ${pid}) to end`, timeoutMs: 10_000 }).catch(() => {
    if (alive()) process.kill(pid, 'SIGKILL');
    return waitFor(() => !alive(), { what: `the proxy (pid ${pid}) to end after SIGKILL`, timeoutMs: 10_000 });
  });
}

/**
 * Closes every proxied client and waits for the facts a cleanup needs: each proxy has ended, and so
 * has every process it had started (its server's sandbox, the file view's helper, pasta). Otherwise
 * a temp folder's removal races their last writes (ENOTEMPTY in proxy-refusals, under load).
 */
export async function closeProxiedClients(): Promise<void> {
  await Promise.all(open.splice(0).map(({ client, pid }) => endProxy(pid, () => client.close())));
}

/** Closes a proxy's stdio, then waits until it and every process it had started are gone. */
async function endProxy(pid: number | undefined, close: () => Promise<void>): Promise<void> {
  // Read while the proxy still runs: once it has ended, its children are PID 1's.
  const started = pid ? descendantsOf(pid) : [];
  await close().catch(() => undefined);
  if (pid) await ended(pid);
  await waitFor(() => !started.some(isRunning), { what: `what the proxy (pid ${pid}) started to end`, timeoutMs: 30_000, explain: () => started.filter(isRunning).join(', ') });
}

/** What a proxy started by proxiedClient wrote to stderr so far: a failing wait explains itself with it. */
export function proxyStderr(client: Client): string {
  return open.find((entry) => entry.client === client)?.stderr() ?? '';
}
