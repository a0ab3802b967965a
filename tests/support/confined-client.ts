// Starts a stdio server through the sandbox module (confineStdio) and talks to it with the real
// SDK client over the same transport the app uses, so tests see what a confined server can do.
import { Client } from '@modelcontextprotocol/client';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { confineStdio, type ConfineOptions, type ConfinedStdio } from '../../electron/host/sandbox/confine-stdio.js';
import { buildTransport } from '../../electron/host/launch/transport-factory.js';
import type { StdioTransportConfig } from '../../shared/domain.js';
import { toolText } from './mcp-servers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The fixture that ignores roots and does whatever it is asked with any path. */
export function anyPathServer(): StdioTransportConfig {
  return { type: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'tests/fixtures/any-path-server.mjs')], env: {} };
}

export interface ConfinedClient {
  client: Client;
  confined: ConfinedStdio;
  pid: number;
  /** The tool's text; errors come back as `ERROR <code> <message>`. */
  call(tool: string, args?: Record<string, unknown>): Promise<string>;
  stderr(): string;
  close(): Promise<void>;
}

const open: ConfinedClient[] = [];

export async function startConfined(
  config: StdioTransportConfig,
  options: ConfineOptions,
  clientOptions: { roots?: string[]; onStep?: (step: string) => void } = {},
): Promise<ConfinedClient> {
  clientOptions.onStep?.('preparing its sandbox (and package)');
  const confined = await confineStdio(config, options);
  clientOptions.onStep?.('connecting to it');
  const built = buildTransport(confined.config, undefined, { childDescriptors: confined.openDescriptors });
  let stderr = '';
  (built.stderr as Readable | undefined)?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'sandbox-test', version: '1.0.0' }, { capabilities: clientOptions.roots ? { roots: {} } : {} });
  if (clientOptions.roots) {
    const roots = clientOptions.roots.map((folder) => ({ uri: pathToFileURL(folder).href }));
    client.setRequestHandler('roots/list', async () => ({ roots }));
  }
  try {
    await client.connect(built.transport);
  } catch (error) {
    throw new Error(`${(error as Error).message}; stderr: ${stderr}`, { cause: error });
  }
  const handle: ConfinedClient = {
    client,
    confined,
    pid: built.pid?.() as number,
    call: async (tool, args = {}) => toolText(await client.callTool({ name: tool, arguments: args })),
    stderr: () => stderr,
    close: () => client.close(),
  };
  open.push(handle);
  return handle;
}

export async function closeConfined(): Promise<void> {
  await Promise.all(open.splice(0).map((handle) => handle.close().catch(() => undefined)));
}
