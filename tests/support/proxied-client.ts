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

const open: { client: Client; stderr: () => string; transport: InPlaceStdioClientTransport }[] = [];

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
    await endProxy(transport, () => transport.close());
    throw new Error(`${(error as Error).message}; proxy stderr: ${stderr}`, { cause: error });
  }
  open.push({ client, stderr: () => stderr, transport });
  return client;
}

/**
 * Closes every proxied client and waits for the facts a cleanup needs: each proxy has ended, and so
 * has every process it had started (its server's sandbox, the file view's helper, pasta). Otherwise
 * a temp folder's removal races their last writes (ENOTEMPTY in proxy-refusals, under load).
 */
export async function closeProxiedClients(): Promise<void> {
  await Promise.all(open.splice(0).map(({ client, transport }) => endProxy(transport, () => client.close())));
}

/**
 * Closes a proxy's stdio, then waits until it (SIGTERM, then SIGKILL after 10 s) and every process
 * it had started are gone. The proxy is signalled through its transport's child process, never by a
 * bare pid: a reaped proxy's pid was once another test's process, which this killed (package-scripts, in CI).
 */
async function endProxy(transport: InPlaceStdioClientTransport, close: () => Promise<void>): Promise<void> {
  const pid = transport.spawnedPid;
  // Read while the proxy still runs: once it has ended, its children are PID 1's.
  const started = pid && transport.exit === undefined ? descendantsOf(pid) : [];
  await close().catch(() => undefined);
  const over = () => transport.exit !== undefined;
  if (!over()) {
    transport.signal('SIGTERM');
    await waitFor(over, { what: `the proxy (pid ${pid}) to end`, timeoutMs: 10_000 }).catch(() => {
      transport.signal('SIGKILL');
      return waitFor(over, { what: `the proxy (pid ${pid}) to end after SIGKILL`, timeoutMs: 10_000 });
    });
  }
  await waitFor(() => !started.some(isRunning), { what: `what the proxy (pid ${pid}) started to end`, timeoutMs: 30_000, explain: () => started.filter(isRunning).join(', ') });
}

/** What a proxy started by proxiedClient wrote to stderr so far: a failing wait explains itself with it. */
export function proxyStderr(client: Client): string {
  return open.find((entry) => entry.client === client)?.stderr() ?? '';
}
