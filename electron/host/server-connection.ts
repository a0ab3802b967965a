// One MCP client connection per enabled server: connect with version negotiation, answer
// roots/list from the exposure cache, push list_changed on 2025-era sessions, reconnect with
// backoff, and keep a bounded activity log.
import { Client, type CallToolResult, type PriorDiscovery } from '@modelcontextprotocol/client';
import readline from 'node:readline';
import type { ActivityEntry, ActivityKind, ServerRecord, ServerStatus, WireRoot } from '../../shared/domain.js';
import { CodedError } from '../../shared/result.js';
import { ActivityLog } from './activity-log.js';
import { RECONNECT_DELAYS_MS, reconnectDelay, STABLE_CONNECTION_MS } from './backoff.js';
import { fileURLToPath } from 'node:url';
import { injectRoots, usesRootPlaceholders } from './argument-injection.js';
import { redactSecretValues, SealedSecretError, type SecretCodec } from './secret-codec.js';
import { buildTransport, type BuiltTransport } from './transport-factory.js';

export const CLIENT_INFO = { name: 'mcp-roots-manager', version: '0.1.0' } as const;

export interface ConnectionHooks {
  /** The server's effective roots right now (cached, immutable arrays). */
  exposureFor(serverId: string): { roots: readonly WireRoot[]; uris: readonly string[] };
  /**
   * Called after every roots/list answer, e.g. to raise a consent request. `expected` is true
   * when we caused the request ourselves (a restart to make the server forget its last folder).
   */
  rootsRequested(serverId: string, answered: readonly WireRoot[], expected: boolean): void;
  statusChanged(serverId: string): void;
  activity(serverId: string, entry: ActivityEntry): void;
}

export interface ConnectionOptions {
  connectTimeoutMs?: number;
  probeTimeoutMs?: number;
  reconnectDelaysMs?: readonly number[];
  /** Opens the config's sealed secrets when the transport is built. */
  secrets?: SecretCodec;
}

const MAX_STDERR_LINE = 2000;

export class ServerConnection {
  status: ServerStatus;
  readonly log = new ActivityLog();
  private client: Client | undefined;
  private built: BuiltTransport | undefined;
  /** Bumped on every start/stop so callbacks of an old session know they are stale. */
  private generation = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private attempts = 0;
  private connectedAt = 0;
  /** The era learned at the last connect: the next connect skips the probe. */
  private prior: PriorDiscovery | undefined;
  private notificationOutstanding = false;
  /** Set while restarting to revoke the last root: the server's next roots/list is ours. */
  private forgetting = false;

  constructor(
    private record: ServerRecord,
    private readonly hooks: ConnectionHooks,
    private readonly options: ConnectionOptions = {},
  ) {
    this.status = { state: record.enabled ? 'disconnected' : 'disabled', rootsRequestCount: 0, listChangedCount: 0 };
  }

  get id(): string {
    return this.record.id;
  }

  get config(): ServerRecord {
    return this.record;
  }

  start(): void {
    if (!this.record.enabled) {
      this.setStatus({ state: 'disabled', error: undefined, nextRetryAt: undefined });
      return;
    }
    void this.connect();
  }

  /** Applies a new config. Capabilities are fixed at connect, so any change means a reconnect. */
  async update(record: ServerRecord, reason: string): Promise<void> {
    const transportChanged = JSON.stringify(record.transport) !== JSON.stringify(this.record.transport);
    this.record = record;
    if (transportChanged) this.prior = undefined;
    this.addActivity('restart', reason);
    await this.stop();
    this.start();
  }

  async reconnect(): Promise<void> {
    this.attempts = 0;
    this.addActivity('restart', 'Reconnect requested.');
    await this.stop();
    this.start();
  }

  async stop(): Promise<void> {
    this.generation++;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = undefined;
    this.built = undefined;
    if (client) {
      try {
        await client.close();
      } catch {
        // Closing a broken transport may throw; the child is gone either way.
      }
      this.addActivity('disconnect', 'Disconnected.');
    }
    this.setStatus({
      state: this.record.enabled ? 'disconnected' : 'disabled',
      nextRetryAt: undefined,
      pid: undefined,
    });
  }

  /** A name change needs no reconnect: the next answer carries it. */
  setRecord(record: ServerRecord): void {
    this.record = record;
  }

  /**
   * The effective roots changed: tell the server, where the protocol lets us push. Returns whether
   * a list_changed went out. While one is outstanding (the server has not asked since), another
   * adds nothing: the server's next roots/list reads the newest list anyway.
   */
  rootsChanged(nowEmpty: boolean): boolean {
    if (this.injectsRoots) {
      if (!this.record.enabled) return false;
      void this.update(this.record, 'Restarted with the new folders as arguments.');
      return true;
    }
    const client = this.client;
    if (!client || this.status.state !== 'connected' || !this.record.sharing) return false;
    // 2026-07-28 sessions have no list_changed: those servers ask again on every call.
    if (client.getProtocolEra() === 'modern') return false;
    if (nowEmpty) {
      // Servers may keep their previous folders when told the list is empty (the reference
      // filesystem server does). A fresh session is the only sure way to take the last one away.
      this.forgetting = true;
      void this.update(this.record, 'Restarted so the server forgets its last folder (an empty list alone does not revoke it everywhere).');
      return true;
    }
    if (this.notificationOutstanding) return false;
    this.notificationOutstanding = true;
    const generation = this.generation;
    this.status = { ...this.status, listChangedCount: this.status.listChangedCount + 1 };
    client.sendRootsListChanged().then(
      () => {
        if (generation === this.generation) this.addActivity('list-changed', 'Sent roots/list_changed.');
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        this.notificationOutstanding = false;
        this.addActivity('error', `list_changed failed: ${message(error)}`);
      },
    );
    return true;
  }

  /** Calls a tool on the server: what the server itself reports is the truth tests check against. */
  async callTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    if (!this.client || this.status.state !== 'connected') {
      throw new CodedError('internal', `${this.record.name} is not connected.`);
    }
    return (await this.client.callTool({ name, arguments: args })) as CallToolResult;
  }

  /** Folders travel in the command line or env: the roots capability is not declared then. */
  private get injectsRoots(): boolean {
    return usesRootPlaceholders(this.record.transport);
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    clearTimeout(this.retryTimer);
    let transportConfig = this.record.transport;
    if (this.injectsRoots) {
      const folders = this.hooks.exposureFor(this.record.id).uris.map((uri) => fileURLToPath(uri));
      if (folders.length === 0) {
        // Most such servers refuse to start without a folder; wait for a grant instead of crash-looping.
        this.setStatus({ state: 'disconnected', error: 'Waiting for a granted folder: this server gets its folders as arguments.' });
        return;
      }
      transportConfig = injectRoots(transportConfig, folders);
      this.addActivity('info', `Started with ${folders.length} folder(s) as arguments.`, folders);
    }
    const declareRoots = this.record.sharing && !this.injectsRoots;
    this.setStatus({ state: 'connecting', error: undefined, nextRetryAt: undefined });
    const client = new Client(
      { ...CLIENT_INFO },
      {
        // Declared only when sharing: otherwise the SDK answers roots/list with -32601.
        capabilities: declareRoots ? { roots: { listChanged: true } } : {},
        versionNegotiation: { mode: 'auto', probe: { timeoutMs: this.options.probeTimeoutMs ?? 3000 } },
      },
    );
    if (declareRoots) {
      client.setRequestHandler('roots/list', async () => {
        const { roots, uris } = this.hooks.exposureFor(this.record.id);
        this.recordRootsRequest(roots, uris);
        return { roots: roots as WireRoot[] };
      });
    }
    let built: BuiltTransport;
    try {
      built = buildTransport(transportConfig, this.options.secrets, { lowPriority: true });
    } catch (error) {
      if (error instanceof SealedSecretError) {
        // Retrying cannot decrypt it: wait for the user to re-enter the value (a config change restarts).
        this.addActivity('error', error.message);
        this.setStatus({ state: 'error', error: error.message, pid: undefined });
        return;
      }
      this.fail(generation, `Cannot start: ${message(error)}`);
      return;
    }
    this.client = client;
    this.built = built;
    if (built.stderr) this.captureStderr(built.stderr, generation);
    client.onclose = () => {
      if (generation !== this.generation) return;
      this.client = undefined;
      this.addActivity('disconnect', 'The server closed the connection.');
      this.setStatus({ state: 'disconnected', pid: undefined });
      this.scheduleRetry(generation);
    };
    client.onerror = (error) => {
      if (generation === this.generation) this.addActivity('error', message(error));
    };
    try {
      await client.connect(built.transport, {
        timeout: this.options.connectTimeoutMs ?? 20_000,
        ...(this.prior ? { prior: this.prior } : {}),
      });
    } catch (error) {
      if (generation !== this.generation) return;
      // A cached era may be stale (the server was upgraded): probe afresh next time.
      this.prior = undefined;
      this.client = undefined;
      // This failure is reported once, as an error: the close it causes is not a second event.
      client.onclose = undefined;
      void client.close().catch(() => undefined);
      this.fail(generation, message(error));
      return;
    }
    if (generation !== this.generation) {
      void client.close().catch(() => undefined);
      return;
    }
    const era = client.getProtocolEra();
    const discover = client.getDiscoverResult();
    this.prior = era === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' };
    this.connectedAt = Date.now();
    this.notificationOutstanding = false;
    const info = client.getServerVersion();
    this.setStatus({
      state: 'connected',
      era,
      protocolVersion: client.getNegotiatedProtocolVersion(),
      serverInfo: info ? { name: info.name, version: info.version } : undefined,
      error: undefined,
      pid: built.pid?.() ?? undefined,
    });
    this.addActivity(
      'connect',
      `Connected (protocol ${client.getNegotiatedProtocolVersion() ?? '?'}${info ? `, ${info.name} ${info.version}` : ''}).`,
    );
  }

  private fail(generation: number, text: string): void {
    this.addActivity('error', text);
    this.setStatus({ state: 'error', error: text, pid: undefined });
    this.scheduleRetry(generation);
  }

  private scheduleRetry(generation: number): void {
    if (generation !== this.generation || !this.record.enabled) return;
    if (this.connectedAt && Date.now() - this.connectedAt >= STABLE_CONNECTION_MS) this.attempts = 0;
    this.connectedAt = 0;
    clearTimeout(this.retryTimer);
    const delay = reconnectDelay(this.attempts++, this.options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS);
    this.setStatus({ nextRetryAt: Date.now() + delay });
    this.retryTimer = setTimeout(() => {
      if (generation === this.generation) void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  private recordRootsRequest(roots: readonly WireRoot[], uris: readonly string[]): void {
    this.notificationOutstanding = false;
    this.status = {
      ...this.status,
      lastRootsRequest: { at: Date.now(), uris },
      rootsRequestCount: this.status.rootsRequestCount + 1,
    };
    this.addActivity('roots-request', `Asked for roots; answered ${roots.length}.`, uris);
    const expected = this.forgetting;
    this.forgetting = false;
    this.hooks.rootsRequested(this.record.id, roots, expected);
    this.hooks.statusChanged(this.record.id);
  }

  private captureStderr(stream: NodeJS.ReadableStream, generation: number): void {
    const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (generation !== this.generation || line.length === 0) return;
      // A server that logs its own token must not show it to the UI.
      const shown = redactSecretValues(line, this.record.transport);
      this.addActivity('stderr', shown.length > MAX_STDERR_LINE ? `${shown.slice(0, MAX_STDERR_LINE)}…` : shown);
    });
    lines.on('error', () => undefined);
  }

  addActivity(kind: ActivityKind, text: string, uris?: readonly string[]): void {
    const entry = this.log.add(kind, text, uris);
    this.hooks.activity(this.record.id, entry);
  }

  private setStatus(patch: Partial<ServerStatus>): void {
    this.status = { ...this.status, ...patch };
    this.hooks.statusChanged(this.record.id);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
