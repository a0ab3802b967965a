// `mcp-roots proxy SERVER`: a host launches this in place of the real server. It reads the
// registry (file-watched, so edits in the app or the CLI arrive live), starts the real server
// from its registry config and stands between the two until the host closes stdin.
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ServerRecord } from '../../shared/domain.js';
import { toHostError } from '../../shared/result.js';
import { findServerRef } from '../cli/resolve-ref.js';
import { usesRootPlaceholders } from '../host/argument-injection.js';
import { RootsHost } from '../host/roots-host.js';
import { ProxyStatusWriter } from './proxy-status-writer.js';
import { FRESH_SESSION, RootsProxy, type RootsPolicy } from './roots-proxy.js';
import { StdioChannel } from './stdio-channel.js';
import { openUpstream } from './upstream.js';

export interface RunProxyOptions {
  configDir: string;
  /** A server's name or id in the registry. */
  server: string;
  rootsPolicy?: RootsPolicy;
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  /** Off in tests that run several proxies in one process. */
  handleSignals?: boolean;
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs one proxy session; resolves with the exit code once the host or the server is gone. */
export async function runProxy(options: RunProxyOptions): Promise<number> {
  const stderr = options.stderr ?? process.stderr;
  const log = (line: string) => stderr.write(`[mcp-roots proxy ${options.server}] ${line}\n`);
  const policy = options.rootsPolicy ?? 'registry';
  const host = new RootsHost({ configDir: options.configDir, connectServers: false, stateThrottleMs: 100 });
  let record: ServerRecord;
  try {
    await host.start();
    record = findServerRef(host.registrySnapshot, options.server);
  } catch (error) {
    log(toHostError(error).message);
    await host.stop();
    return 1;
  }
  const serverId = record.id;
  const currentRecord = () => host.registrySnapshot.servers.find((server) => server.id === serverId);
  if (!record.enabled || !record.sharing) {
    log(`"${record.name}" is ${record.enabled ? 'not sharing roots' : 'disabled'} in MCP Roots Manager: it is told no folders.`);
  }

  const startedAt = Date.now();
  const status = new ProxyStatusWriter(
    options.configDir,
    {
      proxyPid: process.pid,
      serverId,
      serverName: record.name,
      startedAt,
      updatedAt: startedAt,
      ...FRESH_SESSION,
      rootsPolicy: policy,
    },
    250,
    log,
  );
  const channel = new StdioChannel(options.stdin ?? process.stdin, options.stdout ?? process.stdout, log);
  let running = record;
  const proxy = new RootsProxy(
    channel,
    {
      rootsFor: () => host.rootsFor(serverId),
      openUpstream: (handlers) => {
        running = currentRecord() ?? running;
        const folders = host.rootsFor(serverId).map((root) => fileURLToPath(root.uri));
        return openUpstream(running.transport, folders, handlers, stderr);
      },
      injectsRoots: () => usesRootPlaceholders((currentRecord() ?? running).transport),
      statusChanged: (session) => status.update({ ...session, serverName: (currentRecord() ?? running).name }),
      log,
    },
    policy,
  );
  if (policy === 'registry') log('roots policy: registry (the host\'s own roots, if any, are not passed on)');

  const onExposure = (ids: string[]) => {
    if (ids.includes(serverId)) proxy.rootsChanged();
  };
  let removed = false;
  const onState = () => {
    const next = currentRecord();
    if (!next) {
      // Removed from the registry: no exposure event names it any more, yet it must lose its folders.
      if (!removed) {
        removed = true;
        log(`"${running.name}" was removed from MCP Roots Manager: it is told no folders.`);
        proxy.rootsChanged();
      }
      return;
    }
    removed = false;
    if (JSON.stringify(next.transport) !== JSON.stringify(running.transport)) {
      void proxy.restart('The server configuration changed in MCP Roots Manager.');
    }
  };
  host.on('exposure', onExposure);
  host.on('state', onState);

  return new Promise<number>((resolve) => {
    let finished = false;
    const finish = async (code: number) => {
      if (finished) return;
      finished = true;
      for (const signal of SIGNALS) process.off(signal, onSignal);
      host.off('exposure', onExposure);
      host.off('state', onState);
      await proxy.close();
      status.remove();
      await host.stop();
      channel.stop();
      resolve(code);
    };
    const onSignal = () => void finish(0);
    if (options.handleSignals !== false) for (const signal of SIGNALS) process.on(signal, onSignal);
    // The host closing stdin is the MCP way of saying goodbye: the real server goes with us.
    channel.onclose = () => void finish(0);
    proxy.onclose = (code) => void finish(code);
    channel.start();
    proxy.start().catch((error: unknown) => {
      log(`could not start the server: ${error instanceof Error ? error.message : String(error)}`);
      status.update({ state: 'error', error: String(error) });
      void finish(1);
    });
  });
}
