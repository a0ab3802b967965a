// `mcp-roots proxy SERVER`: a host launches this in place of the real server. It follows its
// server's part of the registry (a reader: it never writes it nor waits for its lock; it reads its
// server's view, not the whole file, see server-views.ts), watches only the folders granted to its
// one server, starts the real server from its registry config and stands between the two until the
// host closes stdin. Registry snapshots, not any UI's state, drive it: each one goes through the
// same roots-change policy as the app's own connections.
import type { Readable, Writable } from 'node:stream';
import { quote } from 'shell-quote';
import { config as zodConfig } from 'zod';
import type { ChangeForecast, Registry, ServerRecord } from '../../shared/domain.js';
import { recordBounds } from '../../shared/file-record.js';
import { toHostError } from '../../shared/result.js';
import { usesRootPlaceholders } from '../host/launch/argument-injection.js';
import { ExposureTracker } from '../host/access/exposure-tracker.js';
import { openRegistryCodec } from '../host/registry/keyring-codec.js';
import { ServerViewSource } from '../host/registry/server-view-source.js';
import { hostsChangedLive, needsRestart } from '../host/connections/roots-change-driver.js';
import { configChangeEvent } from '../host/connections/activity-events.js';
import { ProxyStatusWriter } from './proxy-status-writer.js';
import { FRESH_SESSION, RootsProxy, type RootsPolicy } from './roots-proxy.js';
import { StdioChannel } from './stdio-channel.js';
import { armExitDeadline } from './exit-deadline.js';
import { watchParent } from './parent-watch.js';
import { openUpstream } from './upstream.js';
import { PrivateNetworkError, privateNetworkFix } from '../host/sandbox/private-network.js';
import { describeServerFailure, describeSetupFailure } from '../host/launch/server-failure.js';
import { SandboxSetupError } from '../host/sandbox/sandbox-types.js';
import { englishOf } from '../../shared/i18n/activity-message.js';
import { startMark } from '../host/sandbox/start-marks.js';

export interface RunProxyOptions {
  configDir: string;
  /** A server's name or id in the registry. */
  server: string;
  rootsPolicy?: RootsPolicy;
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  /**
   * The proxy owns its process: it handles signals, and ends the process (and its server) at the
   * latest EXIT_DEADLINE_MS after its host left. Off in tests that run several proxies in one process.
   */
  handleSignals?: boolean;
  /** How often the registry file is looked at without a watch event. */
  registryPollMs?: number;
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** How long a proxy whose server could not start waits for its host's first request, to answer it with why. */
export const REFUSAL_WAIT_MS = 10_000;

/** Why the server could not be started, as the app words it ("command not found: npxx (did you mean npx?)"), never "spawn npxx ENOENT". */
function startFailureWords(error: unknown, record: ServerRecord): string {
  const command = record.transport.type === 'stdio' ? record.transport.command : undefined;
  // pasta's failure says its fix, as the app does.
  if (error instanceof PrivateNetworkError) return `${error.message}; ${privateNetworkFix(record.name)}`;
  if (error instanceof SandboxSetupError) return describeSetupFailure(error, command).message;
  const transport = record.transport.type;
  return describeServerFailure({ error, transport, command, server: record.name, ...(transport !== 'stdio' ? { url: record.transport.url } : {}) }).message;
}

/** What the host is told when the server could not be started: what, why, and where to fix it. */
export function startRefusal(serverName: string, said: string): string {
  const reason = said.replace(/[.\s]+$/, '');
  return `MCP Roots Manager could not start "${serverName}": ${reason}. Fix it in MCP Roots Manager (the server's settings, or \`mcp-roots servers set ${quote([serverName])} …\`), then reconnect this server in your app.`;
}

/** Runs one proxy session; resolves with the exit code once the host or the server is gone. */
export async function runProxy(options: RunProxyOptions): Promise<number> {
  // A proxy process parses a few small things (its server's view, the server's messages), each
  // schema a handful of times: zod's JIT, which writes and compiles a parser per schema on its
  // first use, cost more than it saves (the first parse of the view: ~40 ms of a ~200 ms start).
  // Only in a process the proxy owns: the app and tests keep zod as they set it.
  if (options.handleSignals !== false) zodConfig({ jitless: true });
  const stderr = options.stderr ?? process.stderr;
  const log = (line: string) => stderr.write(`[mcp-roots proxy ${options.server}] ${line}\n`);
  const policy = options.rootsPolicy ?? 'registry';
  const model = new ServerViewSource({
    configDir: options.configDir,
    server: options.server,
    // Opens what the CLI or the app sealed (views hold secrets sealed, as config.json does); the
    // keychain is asked only when the server has a stored secret.
    secrets: () => openRegistryCodec(options.configDir),
    ...(options.registryPollMs !== undefined ? { pollMs: options.registryPollMs } : {}),
  });
  let record: ServerRecord;
  try {
    for (const notice of await model.open()) log(notice.message);
    record = model.current.servers[0] as ServerRecord;
    startMark('registry');
  } catch (error) {
    log(toHostError(error).message);
    await model.close();
    return 1;
  }
  const serverId = record.id;
  const tracker = new ExposureTracker({ scope: serverId });
  tracker.update(model.current);
  if (!record.enabled || !record.sharing) {
    log(`"${record.name}" is ${record.enabled ? 'not sharing roots' : 'disabled'} in MCP Roots Manager: it is told no folders.`);
  }

  /** The config the real server runs with now. */
  let running = record;
  // What a grant or revoke would do, by the app's own policy, read at each write of the status file
  // (so it matches the session as written); there is no session to ask before the proxy exists.
  let forecast: () => ChangeForecast | undefined = () => undefined;
  const startedAt = Date.now();
  const status = new ProxyStatusWriter(
    options.configDir,
    { proxyPid: process.pid, serverId, serverName: record.name, startedAt, updatedAt: startedAt, ...FRESH_SESSION, rootsPolicy: policy },
    { log, refresh: () => ({ changeRestarts: forecast() }) },
  );
  const channel = new StdioChannel(options.stdin ?? process.stdin, options.stdout ?? process.stdout, log);
  const proxy = new RootsProxy(
    channel,
    {
      exposure: () => tracker.get(serverId),
      openUpstream: (handlers) =>
        openUpstream(running, tracker.get(serverId).folders, handlers, stderr, { dataDir: options.configDir, recordBounds: () => recordBounds(model.current.settings) }, (text) => {
          if (text) log(text);
          status.update({ preparing: text });
        }),
      injectsRoots: () => usesRootPlaceholders(running.transport),
      sandboxed: () => running.sandbox,
      transportKind: () => running.transport.type,
      statusChanged: (session) => status.update({ ...session, serverName: running.name }),
      log,
    },
    policy,
  );
  forecast = () => proxy.changeForecast(running);
  if (policy === 'registry') log('roots policy: registry (the host\'s own roots, if any, are not passed on)');

  let removed = false;
  const onRegistry = ({ registry }: { registry: Registry }) => {
    const next = registry.servers.find((server) => server.id === serverId);
    if (!next && !removed) log(`"${running.name}" was removed from MCP Roots Manager: it is told no folders.`);
    removed = next === undefined;
    const configChanged = next !== undefined && needsRestart(running, next, new Set(Object.keys(registry.grants[serverId] ?? {})));
    const reason = next && configChanged ? englishOf(configChangeEvent(running, next)) : undefined;
    const hostsLive = next !== undefined && !reason && hostsChangedLive(running, next);
    if (next) running = next;
    if (hostsLive) void proxy.allowedHostsChanged(next?.allowHosts ?? []);
    const change = tracker.update(registry);
    // A new config means a new process, which reads the newest folders itself.
    if (reason) void proxy.restart(`${reason} (changed in MCP Roots Manager)`);
    else if (change.changed.includes(serverId)) proxy.rootsChanged(tracker.get(serverId));
    // Its folders or config changed, and with them the forecast, even where the session was told nothing.
    status.update();
  };
  const onAccess = () => {
    proxy.rootsChanged(tracker.get(serverId));
    status.update();
  };
  const onNotice = (notice: { message: string }) => log(notice.message);
  model.on('change', onRegistry);
  model.on('notice', onNotice);
  tracker.on('change', onAccess);

  return new Promise<number>((resolve) => {
    let finished = false;
    let stopWatching = (): void => undefined;
    const finish = async (code: number) => {
      if (finished) return;
      finished = true;
      stopWatching();
      for (const signal of SIGNALS) process.off(signal, onSignal);
      model.off('change', onRegistry);
      model.off('notice', onNotice);
      tracker.off('change', onAccess);
      await proxy.close();
      status.remove();
      tracker.stop();
      await model.close();
      channel.stop();
      resolve(code);
    };
    const ownsProcess = options.handleSignals !== false;
    // The host is gone (stdin closed, or a signal): whatever state the session is in, it ends.
    const hostGone = () => {
      if (ownsProcess && !finished) armExitDeadline({ serverPids: () => proxy.serverPids(), log, exit: (code) => process.exit(code) });
      void finish(0);
    };
    const onSignal = hostGone;
    if (ownsProcess) for (const signal of SIGNALS) process.on(signal, onSignal);
    // The host may be gone while its stdin stays open elsewhere: its end is then seen by our parent changing.
    if (ownsProcess) {
      stopWatching = watchParent((former) => {
        log(`the host that started it (pid ${former}) is gone: ending`);
        hostGone();
      });
    }
    // The host closing stdin is the MCP way of saying goodbye: the real server goes with us.
    channel.onclose = hostGone;
    proxy.onclose = (code) => void finish(code);
    channel.start();
    proxy.start().catch((error: unknown) => {
      // A start cut short by the host leaving is no failure to report.
      if (finished) return;
      // pasta's failure says its fix, as the app does (server-failure.ts).
      const said = startFailureWords(error, running);
      log(`could not start the server: ${said}`);
      status.update({ state: 'stopped', error: String(error) });
      // The host is owed an answer, not an exit it would word as its own time-out: its initialize
      // (waiting now, or arriving within REFUSAL_WAIT_MS) gets the reason and the fix as its error.
      void proxy.refuseAll(startRefusal(running.name, said), REFUSAL_WAIT_MS).then(() => finish(1));
    });
  });
}
