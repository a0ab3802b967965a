// One MCP client connection per enabled server: connect with version negotiation, answer
// roots/list from the exposure cache, push list_changed on 2025-era sessions, reconnect with
// backoff, and keep a bounded activity log.
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { ActivityEntry, ActivityKind, ChangeForecast, ChangeSource, InboundLimitation, ServerFailure, ServerRecord, ServerStatus, WireRoot } from '../../../shared/domain.js';
import type { FileRecordBounds } from '../../../shared/file-record.js';
import { CodedError } from '../../../shared/result.js';
import { ActivityLog, type ActivityDetail } from './activity-log.js';
import { injectRoots, usesRootPlaceholders } from '../launch/argument-injection.js';
import { FLOOD_RESTART_DELAYS_MS, RECONNECT_DELAYS_MS, reconnectDelay, STABLE_CONNECTION_MS } from './backoff.js';
import { openClientSession, type EraSession, type EraVerdict } from './era-negotiation.js';
import { FirstRootsGate } from './first-roots-gate.js';
import { DEFAULT_FLOOD_PENALTIES, DEFAULT_INBOUND_LIMITS, type InboundLimits } from '../launch/inbound-limits.js';
import type { Exposure } from '../access/exposure.js';
import { holdEvent, verifiedEvent } from './activity-events.js';
import type { ActivityEvent } from '../../../shared/activity-event.js';
import { englishOf } from '../../../shared/i18n/activity-message.js';
import { hostsChangedLive } from './roots-change-policy.js';
import { RootsChangeDriver } from './roots-change-driver.js';
import { SealedSecretError, type SecretCodec } from '../registry/secret-codec.js';
import { prepareConnectionStart, StartSandbox } from '../launch/connection-sandbox.js';
import { packageLaunchLine } from '../launch/package-launch-line.js';
import type { SandboxSupport } from '../sandbox/sandbox-probe.js';
import { describeServerFailure, EXITS_BEFORE_HOLD, holdReason, type HoldReason } from '../launch/server-failure.js';
import { buildTransport, type BuiltTransport } from '../launch/transport-factory.js';
import { ConnectionLifecycle, connectionStateOf, DRAIN_LIMIT_MS, holdsCalls, isConnected, type Lifecycle } from './connection-lifecycle.js';
import { drainCutText, RunningCalls, type DrainOutcome } from './drain-wait.js';

export interface ConnectionHooks {
  /** The server's effective roots right now (cached, immutable arrays). */
  exposureFor(serverId: string): Exposure;
  /**
   * Called after every roots/list answer, e.g. to raise a consent request. `expected` is true
   * when we caused the request ourselves (a restart to make the server forget its last folder).
   */
  rootsRequested(serverId: string, answered: readonly WireRoot[], expected: boolean): void;
  statusChanged(serverId: string): void;
  activity(serverId: string, entry: ActivityEntry): void;
  /**
   * Called before an entry is added to its log: the app's host logs a registry change's grants
   * there, before what the change did to the server (a restart), not before it was told.
   */
  beforeActivity?(serverId: string): void;
}

export interface ConnectionOptions {
  connectTimeoutMs?: number;
  probeTimeoutMs?: number;
  reconnectDelaysMs?: readonly number[];
  /** After a session closed for flooding: the first, second... restart waits at least this long. */
  floodRestartDelaysMs?: readonly number[];
  /** What reading a stdio server may cost (inbound-limits.ts); default: its rate, then penalties. */
  inboundLimits?: InboundLimits;
  /**
   * How long a server that asked for roots before may take to ask again after list_changed. One
   * that does not is restarted so the change takes effect, and from then on restarted at once.
   */
  reaskWindowMs?: number;
  /** Opens the config's sealed secrets when the transport is built. */
  secrets?: SecretCodec;
  /** Never start the server (tests of the contract and the UI that add commands they must not run). */
  dormant?: boolean;
  /** Where sandboxed servers keep their private HOME and TMPDIR (the registry's config dir). */
  dataDir?: string;
  /** Tests: the sandbox probe to use instead of this process's. */
  sandboxSupport?: SandboxSupport;
  /** The file record's bounds as the settings say now (audit/file-record.ts). */
  recordBounds?: () => FileRecordBounds;
  /** How long a restart waits for running tool calls (DRAIN_LIMIT_MS; tests shorten it). */
  drainLimitMs?: number;
}


/**
 * What a session knows, emptied when a new one starts or the server is switched off: an old
 * session's protocol, answer and counts are not this one's (after sharing is turned off, "answered
 * 4 folders" would be false), and a disabled server has no session at all.
 */
const NO_SESSION = {
  protocolVersion: undefined,
  era: undefined,
  eraReason: undefined,
  serverInfo: undefined,
  lastRootsRequest: undefined,
  rootsRequestCount: 0,
  listChangedCount: 0,
} as const satisfies Partial<SessionFacts>;

/** What a status says beside where the connection is in its life: `state`, `lifecycle`, `nextRetryAt` and `held` come from the lifecycle alone. */
type SessionFacts = Omit<ServerStatus, 'state' | 'lifecycle' | 'nextRetryAt' | 'held'>;

export class ServerConnection {
  private facts: SessionFacts = { rootsRequestCount: 0, listChangedCount: 0 };
  private composed: { facts: SessionFacts; lifecycle: Lifecycle; enabled: boolean; status: ServerStatus } | undefined;
  readonly log = new ActivityLog();
  private client: Client | undefined;
  private built: BuiltTransport | undefined;
  /** Bumped on every start/stop so callbacks of an old session know they are stale. */
  private generation = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private attempts = 0;
  /** Starts in a row that ended before answering (server-failure.ts EXITS_BEFORE_HOLD); a start not made by the retry timer begins a new count. */
  private exitStreak = 0;
  /**
   * Sessions closed for flooding. Not reset by a long connection, as crash counts are: a flood
   * keeps the connection up. The user's Reconnect clears it.
   */
  private floods = 0;
  /** Where it is in its life (connection-lifecycle.ts); published as status.lifecycle and, in one word, status.state. */
  private readonly lifecycle = new ConnectionLifecycle('stopped', () => this.hooks.statusChanged(this.record.id));
  /** Tool calls running on the current process: a restart waits for them (drains). */
  private readonly running = new RunningCalls();
  private connectedAt = 0;
  /** The era learned at the last connect (for a roots capability declared or not): the next connect skips the probe. */
  private eraVerdict: { carriesRoots: boolean; verdict: EraVerdict } | undefined;
  /** What a change of its folders does (roots-change-driver.ts): the started folders, what it was told, whether it re-asks. */
  private readonly roots: RootsChangeDriver;
  /** The current start's sandbox (self-check, stderr tail), while it is enforced. */
  private sandbox = new StartSandbox(undefined);
  /** After each start, calls wait for the server's first roots/list (first-roots-gate.ts). */
  private readonly firstRoots = new FirstRootsGate();

  constructor(
    private record: ServerRecord,
    private readonly hooks: ConnectionHooks,
    private readonly options: ConnectionOptions = {},
  ) {
    this.roots = new RootsChangeDriver(
      {
        generation: () => this.generation,
        connected: () => this.client !== undefined && isConnected(this.lifecycle.state),
        era: () => (this.client && isConnected(this.lifecycle.state) ? this.client.getProtocolEra() : undefined),
        injectsRoots: () => this.injectsRoots,
        confinement: () => this.facts.confinement,
        startingSandboxed: () => this.record.sandbox === true && this.lifecycle.is('connecting'),
        // A crash's retry timer or a hold for a change; a flood's hold-off is not cut short.
        waitingToRetry: () => {
          const now = this.lifecycle.now;
          return this.client === undefined && ((now.state === 'backing-off' && !now.forFlood) || (now.state === 'held-off' && now.reason !== undefined));
        },
        liveTarget: () => ({ live: this.sandbox.live, pid: this.facts.pid, writableByChoice: this.record.writableByChoice }),
        mayNotify: () => this.record.sharing,
        sendListChanged: (failed) => this.sendListChanged(failed),
        restart: (event) => void this.update(this.record, event),
        verified: (check) => this.setStatus({ confinement: { ...this.facts.confinement, state: 'enforced', selfCheck: check } }),
        rereadsRoots: (value) => this.setStatus({ rereadsRoots: value }),
        activity: (kind, event) => void this.addActivity(kind, event),
        beginApplying: () => this.beginApplying(),
      },
      options.reaskWindowMs,
    );
  }

  get id(): string {
    return this.record.id;
  }

  /**
   * What the UI, the CLI and the status file show. Its `state` is derived from the lifecycle
   * (connectionStateOf), never set on its own; the same object while nothing changed.
   */
  get status(): ServerStatus {
    const lifecycle = this.lifecycle.now;
    const enabled = this.record.enabled;
    const last = this.composed;
    if (last && last.facts === this.facts && last.lifecycle === lifecycle && last.enabled === enabled) return last.status;
    const status: ServerStatus = {
      state: connectionStateOf(lifecycle, enabled),
      lifecycle: lifecycle.state,
      ...this.facts,
      nextRetryAt: lifecycle.state === 'backing-off' ? lifecycle.retryAt : undefined,
      held: lifecycle.state === 'held-off' && lifecycle.reason !== undefined ? { reason: lifecycle.reason, at: lifecycle.at ?? 0 } : undefined,
    };
    this.composed = { facts: this.facts, lifecycle, enabled, status };
    return status;
  }

  get config(): ServerRecord {
    return this.record;
  }

  start(): void {
    if (!this.record.enabled || this.options.dormant) {
      this.lifecycle.fire('stop');
      if (!this.record.enabled) this.setStatus({ error: undefined });
      return;
    }
    void this.connect();
  }

  /**
   * Applies a new config. Capabilities are fixed at connect, so any change means a reconnect.
   * `source`: who changed the config (absent for the app's own restarts).
   */
  async update(record: ServerRecord, reason: ActivityEvent, source?: ChangeSource): Promise<void> {
    const transportChanged = JSON.stringify(record.transport) !== JSON.stringify(this.record.transport);
    this.record = record;
    if (transportChanged) this.eraVerdict = undefined;
    this.addActivity('restart', reason, undefined, source ? { source } : undefined);
    // Switched off: at once. Otherwise calls running on the old process may finish first.
    if (record.enabled) await this.restart(reason);
    else await this.restartNow();
  }

  async reconnect(): Promise<void> {
    this.attempts = 0;
    this.floods = 0;
    this.facts = { ...this.facts, limited: undefined };
    this.addActivity('restart', { code: 'reconnect-requested' });
    // Asked by the person: the new session's roots/list is its own wish again, not the answer to a
    // policy restart this one cuts short (which would otherwise swallow its folder request).
    this.roots.forgetRestart();
    // The person asked for it now (often for a server that hangs): no waiting for its calls.
    await this.restartNow();
  }

  async stop(): Promise<void> {
    this.lifecycle.fire('stop');
    await this.halt();
  }

  /**
   * Restarts it once its running tool calls finish, at most the drain limit; calls that come
   * meanwhile wait and go to the new process. Several reasons during one drain make one restart,
   * with the newest config (read when it starts).
   */
  private restart(reason: ActivityEvent): Promise<void> {
    const now = this.lifecycle.now;
    // Another reason while it drains joins the restart under way (the 'draining' state carries it).
    if (now.state === 'draining' && now.restart) return now.restart;
    if (this.running.size === 0 || !this.lifecycle.is('ready', 'applying-grants')) return this.restartNow();
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    const restart = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    this.lifecycle.fire('drain', { restart });
    this.drainCalls(reason)
      .then(async (outcome) => {
        // Stopped, reconnected or ended meanwhile: that path owns what happens next.
        if (outcome !== 'cancelled' && this.lifecycle.is('draining', 'backing-off', 'restarting')) await this.restartNow();
      })
      .then(settle.resolve, settle.reject);
    return restart;
  }

  private async restartNow(): Promise<void> {
    this.lifecycle.fire('restart');
    await this.halt();
    this.start();
  }

  /** Waits for the running calls (the lifecycle is 'draining' already), at most the drain limit. */
  private async drainCalls(reason: ActivityEvent): Promise<DrainOutcome> {
    const limitMs = this.options.drainLimitMs ?? DRAIN_LIMIT_MS;
    const calls = this.running.size;
    this.setStatus({ draining: { calls, until: Date.now() + limitMs, limitMs, reason: englishOf(reason) } });
    // The reason is the 'restart' entry just before this one.
    this.addActivity('info', { code: 'drain-waiting', params: { count: calls, seconds: Math.round(limitMs / 1000) } });
    const outcome = await this.running.drained(limitMs);
    if (outcome === 'limit') {
      const text = drainCutText(this.record.name, englishOf(reason), limitMs);
      this.addActivity('error', { code: 'drain-cut', params: { count: this.running.cutAll(text), seconds: Math.round(limitMs / 1000) } });
    }
    this.setStatus({ draining: undefined });
    return outcome;
  }

  /** Ends the current process or session and any timer (the lifecycle has already moved). */
  private async halt(): Promise<void> {
    this.generation++;
    this.firstRoots.release();
    this.running.cancelDrain();
    clearTimeout(this.retryTimer);
    this.roots.newSession();
    this.retryTimer = undefined;
    this.roots.notRunning();
    // Disposed once the process is closed: its placeholders can then go at once (an app that quits keeps no timer).
    const ended = this.sandbox;
    this.sandbox = new StartSandbox(undefined);
    const client = this.client;
    const built = this.built;
    this.client = undefined;
    this.built = undefined;
    if (client) {
      try {
        await client.close();
      } catch {
        // Closing a broken transport may throw; the child is gone either way.
      }
      this.addActivity('disconnect', { code: 'disconnected' });
    } else {
      // Stopped while still negotiating: no client owns the process yet.
      await built?.transport.close().catch(() => undefined);
    }
    ended.dispose();
    this.setStatus({
      draining: undefined,
      pid: undefined,
      ...(this.record.enabled ? {} : { ...NO_SESSION, error: undefined, failure: undefined }),
    });
  }

  /** A name change needs no reconnect: the next answer carries it. */
  setRecord(record: ServerRecord): void {
    const before = this.record;
    this.record = record;
    // One list of allowed hosts for another: the running server's rules follow, without a restart.
    const egress = this.sandbox.egress;
    if (egress && hostsChangedLive(before, record)) {
      const generation = this.generation;
      egress.setHosts(record.allowHosts ?? []).then(
        async () => {
          this.addActivity('info', { code: 'hosts-live' });
          // Its check names the list it holds: checked again, so the detail never shows the old one.
          const check = await this.sandbox.check(this.facts.pid);
          if (generation === this.generation && check?.verified) this.setStatus({ confinement: { ...this.facts.confinement, state: 'enforced', selfCheck: check } });
        },
        (error: unknown) => void this.update(record, { code: 'restart-live', params: { why: 'hosts-failed', detail: message(error) } }),
      );
    }
  }

  /**
   * The effective roots changed: do what the roots-change policy says (notify, change its mounts
   * live, restart, nothing; roots-change-driver.ts). Returns whether a list_changed went out or a
   * change began.
   */
  exposureChanged(after: Exposure): boolean {
    if (!this.record.enabled) return false;
    return this.roots.changed(after);
  }

  /** What granting or revoking one of its folders would do now (the policy's decision, asked ahead); undefined where this process never runs it. */
  changeForecast(current: Exposure): ChangeForecast | undefined {
    if (this.options.dormant) return undefined;
    return this.roots.forecast(this.record, current);
  }

  /** Enters 'applying-grants' (a live mount or a list_changed being written) until the returned call; nested ones count (its depth). */
  private beginApplying(): () => void {
    const generation = this.generation;
    if (!this.lifecycle.is('ready', 'applying-grants')) return () => undefined;
    this.lifecycle.fire('apply-grants');
    let ended = false;
    return () => {
      // A restart or stop meanwhile left the state: nothing to end.
      if (ended || generation !== this.generation || !this.lifecycle.is('applying-grants')) return;
      ended = true;
      this.lifecycle.fire('grants-applied');
    };
  }

  /**
   * Puts what was sent to it in this turn (a list_changed) on its pipe now. The transport holds a
   * turn's messages until a nextTick, which runs only after every microtask queued before it: the
   * rest of an edit's work and its listeners (BENCHMARKS.md section 2).
   */
  flushWrites(): void {
    this.built?.flush?.();
  }

  /** Sends list_changed on the current session (the driver decided it); false when none is connected. */
  private sendListChanged(failed: () => void): boolean {
    const client = this.client;
    if (!client) return false;
    const generation = this.generation;
    const applied = this.beginApplying();
    this.facts = { ...this.facts, listChangedCount: this.facts.listChangedCount + 1 };
    client.sendRootsListChanged().then(
      () => {
        applied();
        if (generation === this.generation) this.addActivity('list-changed', { code: 'list-changed-sent' });
      },
      (error: unknown) => {
        applied();
        if (generation !== this.generation) return;
        failed();
        this.addActivity('error', { code: 'list-changed-failed', params: { detail: message(error) } });
      },
    );
    return true;
  }

  /** Calls a tool on the server: what the server itself reports is the truth tests check against. */
  async callTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    // A new process is on its way (a restart drains, or it is starting): the call goes to it.
    if (holdsCalls(this.lifecycle.state)) await this.lifecycle.until((state) => !holdsCalls(state));
    await this.firstRoots.passed();
    const client = this.client;
    if (!client || !isConnected(this.lifecycle.state)) {
      throw new CodedError('internal', `${this.record.name} is not connected.`);
    }
    return this.running.run(
      async () => (await client.callTool({ name, arguments: args })) as CallToolResult,
      (running) => {
        const draining = this.facts.draining;
        if (draining) this.setStatus({ draining: { ...draining, calls: running } });
      },
    );
  }

  /** Folders travel in the command line or env: the roots capability is not declared then. */
  private get injectsRoots(): boolean {
    return usesRootPlaceholders(this.record.transport);
  }

  /** `byRetry`: started by the retry timer, so its exits go on counting towards a hold. */
  private async connect(byRetry = false): Promise<void> {
    const generation = ++this.generation;
    clearTimeout(this.retryTimer);
    if (!byRetry) this.exitStreak = 0;
    this.lifecycle.fire('start');
    let transportConfig = this.record.transport;
    const exposure = this.hooks.exposureFor(this.record.id);
    if (this.injectsRoots) {
      // The server reads its arguments in its own file system: the paths it sees them at (path-map.ts).
      const folders = exposure.folders.map((folder) => folder.serverPath);
      if (folders.length === 0) {
        // Most such servers refuse to start without a folder; wait for a grant instead of crash-looping.
        this.setStatus({ error: 'Waiting for a granted folder: this server gets its folders as arguments.' });
        this.lifecycle.fire('hold');
        return;
      }
      try {
        transportConfig = injectRoots(transportConfig, folders);
      } catch (error) {
        // A folder that cannot be carried (it holds the join separator): retrying cannot help; a grant or config change restarts.
        this.addActivity('error', { code: 'error-text', params: { detail: message(error) } });
        this.setStatus({ error: message(error), pid: undefined });
        this.lifecycle.fire('hold', { failed: true });
        return;
      }
      this.addActivity('info', { code: 'started-with-folders', params: { count: folders.length } }, folders);
    }
    // From here the process is being started with these folders: a change now restarts it.
    this.roots.startedWith(exposure.folders);
    this.setStatus({ error: undefined, failure: undefined, ...NO_SESSION });
    // Only a sandboxed start prepares the package itself (an npx install can take many seconds):
    // said while it runs, so the person sees more than "connecting".
    const packageLine = this.record.sandbox ? packageLaunchLine(this.record.transport) : undefined;
    if (packageLine) this.setStatus({ preparing: { since: Date.now(), command: packageLine } });
    const preparation = await prepareConnectionStart(this.record, transportConfig, exposure.folders, {
      dataDir: this.options.dataDir ?? process.cwd(),
      support: this.options.sandboxSupport,
      recordBounds: this.options.recordBounds,
      onNetworkRefused: (line) => this.addActivity('info', { code: 'network-refused', params: { detail: line.replace(/^refused /, '') } }),
    }).finally(() => {
      if (packageLine && generation === this.generation) this.setStatus({ preparing: undefined });
    });
    if (generation !== this.generation) return;
    if (preparation.kind === 'not-started') {
      this.roots.notRunning();
      if (preparation.confinement) this.setStatus({ confinement: preparation.confinement });
      this.fail(generation, preparation.failure, holdReason({ blocked: false, setup: preparation.setup }));
      return;
    }
    const { prepared } = preparation;
    transportConfig = prepared.transport;
    this.sandbox.dispose();
    this.sandbox = new StartSandbox(prepared.confined);
    this.setStatus({ confinement: prepared.confinement });
    const declareRoots = this.record.sharing && !this.injectsRoots;
    let built: BuiltTransport;
    try {
      built = buildTransport(transportConfig, this.options.secrets, {
        lowPriority: true,
        inboundLimits: this.options.inboundLimits ?? APP_INBOUND_LIMITS,
        childDescriptors: prepared.confined?.openDescriptors,
      });
    } catch (error) {
      if (error instanceof SealedSecretError) {
        // Retrying cannot decrypt it: wait for the user to re-enter the value (a config change restarts).
        const failure: ServerFailure = { code: 'sealed-secret', message: error.message };
        this.addActivity('error', { code: 'server-failure' }, undefined, { failure });
        this.setStatus({ error: error.message, failure, pid: undefined });
        this.lifecycle.fire('hold', { failed: true });
        return;
      }
      this.fail(generation, { code: 'other', message: `Cannot start: ${message(error)}` });
      return;
    }
    this.built = built;
    // Its process starts now (the transport spawns it as the session opens): what it changes from here is "since it started".
    this.setStatus({ startedAt: Date.now() });
    this.roots.newSession();
    if (built.stderr) {
      this.sandbox.readStderr(built.stderr, this.record.transport, (shown) => {
        if (generation === this.generation) this.addActivity('stderr', { code: 'stderr', params: { line: shown } });
      });
    }
    built.inbound?.on('limited', (limitation) => this.limited(generation, limitation));
    let session: EraSession;
    try {
      session = await openClientSession(built.transport, {
        transport: transportConfig.type,
        carriesRoots: declareRoots,
        known: this.eraVerdict?.carriesRoots === declareRoots ? this.eraVerdict.verdict : undefined,
        probeTimeoutMs: this.options.probeTimeoutMs ?? 3000,
        connectTimeoutMs: this.options.connectTimeoutMs ?? 20_000,
        answerRoots: () => {
          const { roots, uris } = this.hooks.exposureFor(this.record.id);
          this.recordRootsRequest(roots, uris);
          return roots;
        },
        onError: (error) => {
          if (generation === this.generation) this.addActivity('error', { code: 'error-text', params: { detail: message(error) } });
        },
        onSlowProbeAnswer: (afterMs) => {
          if (generation === this.generation) this.addActivity('info', { code: 'slow-probe-answer', params: { afterMs } });
        },
      });
    } catch (error) {
      if (generation !== this.generation) return;
      // A cached era may be stale (the server was upgraded): probe afresh next time.
      this.eraVerdict = undefined;
      this.roots.notRunning();
      // How it ended on its own, read before we close it: our close ends it too, and a server
      // that hung must read "did not answer in time", not "exited with code 0".
      const exit = built.exit?.();
      // The child's last stderr lines may still be in the pipe; closing ends it. Capped: a stuck pipe
      // must not hold the failure back.
      await Promise.race([built.transport.close().catch(() => undefined).then(() => streamEnded(built.stderr)), delay(1000)]);
      if (generation !== this.generation) return;
      const transport = this.record.transport;
      const failure = describeServerFailure({
          error,
          transport: transport.type,
          ...(transport.type === 'stdio' ? { command: transport.command, cwd: transport.cwd } : { url: transport.url }),
          server: this.record.name,
          exit,
          stderr: this.sandbox.stderrTail,
          timeoutMs: this.options.connectTimeoutMs ?? 20_000,
        });
      this.addActivity('error', { code: 'server-failure' }, undefined, { failure });
      this.setStatus({ error: failure.message, failure, pid: undefined });
      this.exitStreak = failure.code === 'exited' ? this.exitStreak + 1 : 0;
      this.afterFailure(generation, holdReason({ blocked: this.noteBlocked() }) ?? (this.exitStreak >= EXITS_BEFORE_HOLD ? 'exits-at-start' : undefined), true);
      return;
    }
    const client = session.client;
    if (generation !== this.generation) {
      void client.close().catch(() => undefined);
      return;
    }
    this.client = client;
    // An unanswered probe says nothing of the eras the server offers (it was slow to start): the
    // next session asks again instead of keeping the 2025 fallback for good.
    this.eraVerdict = session.verdict.reason === 'probe-unanswered' ? undefined : { carriesRoots: declareRoots, verdict: session.verdict };
    // A 2025-era server asks for its folders just after the handshake: calls wait for that answer.
    if (declareRoots && client.getProtocolEra() === 'legacy' && this.facts.rootsRequestCount === 0) this.firstRoots.hold();
    client.onclose = () => {
      if (generation !== this.generation) return;
      this.firstRoots.release();
      this.client = undefined;
      this.roots.notRunning();
      this.addActivity('disconnect', { code: this.lifecycle.is('restarting') ? 'closed-for-flooding' : 'closed-by-server' });
      this.setStatus({ pid: undefined });
      this.afterFailure(generation, holdReason({ blocked: this.noteBlocked() }), false);
    };
    const era = client.getProtocolEra();
    this.connectedAt = Date.now();
    const info = client.getServerVersion();
    this.lifecycle.fire('connected');
    this.setStatus({
      era,
      eraReason: session.verdict.reason,
      protocolVersion: client.getNegotiatedProtocolVersion(),
      serverInfo: info ? { name: info.name, version: info.version } : undefined,
      error: undefined,
      pid: built.pid?.() ?? undefined,
    });
    this.addActivity('connect', { code: 'connected', params: { protocol: client.getNegotiatedProtocolVersion() ?? '?', server: info ? `${info.name} ${info.version}` : '' } });
    if (this.sandbox.enforced) await this.verifyConfinement(generation, built.pid?.() ?? undefined);
  }

  /**
   * Proves the sandbox of the running process from outside (its mounts, a folder it must not see).
   * A server whose confinement cannot be proved is stopped: a badge saying "Enforced" must be a fact.
   */
  private async verifyConfinement(generation: number, pid: number | undefined): Promise<void> {
    const check = await this.sandbox.check(pid);
    if (generation !== this.generation || !check) return;
    const confinement = { ...this.facts.confinement, state: 'enforced' as const, selfCheck: check };
    if (check.verified) {
      this.setStatus({ confinement });
      this.addActivity('info', verifiedEvent(check));
      // A limit it reaches is the kernel refusing it more: said once, so the person knows why it fails.
      this.sandbox.watchLimits(pid, (event) => {
        if (generation === this.generation) this.addActivity('error', event);
      });
      return;
    }
    // Never "run it unconfined" first: a check that fails may be the sandbox catching an attack.
    const text = this.addActivity('error', { code: 'sandbox-unverified', params: { detail: check.detail } }).message;
    this.setStatus({ error: text, confinement });
    this.lifecycle.fire('stop', { failed: true });
    await this.halt();
  }

  /** After a failure: did the sandbox stand in its way? (Shown with "Grant this folder" / "Run without sandbox".) */
  private noteBlocked(): boolean {
    const blocked = this.sandbox.blocked(this.facts.confinement);
    if (!blocked) return false;
    this.setStatus({ confinement: blocked.confinement });
    this.addActivity('error', blocked.event);
    return true;
  }

  private fail(generation: number, failure: ServerFailure, hold?: HoldReason): void {
    this.addActivity('error', { code: 'server-failure' }, undefined, { failure });
    this.setStatus({ error: failure.message, failure, pid: undefined });
    this.afterFailure(generation, hold, true);
  }

  /**
   * After it failed or ended: retry on a timer, or, where no timer helps (server-failure.ts), wait
   * for a change. `failed`: it failed to start (shown as an error), rather than ended.
   */
  private afterFailure(generation: number, hold: HoldReason | undefined, failed: boolean): void {
    if (!hold) {
      this.scheduleRetry(generation, failed);
      return;
    }
    if (generation !== this.generation || !this.record.enabled) return;
    clearTimeout(this.retryTimer);
    this.connectedAt = 0;
    this.lifecycle.fire('hold', { reason: hold, failed, at: Date.now() });
    this.addActivity('info', holdEvent(hold));
  }

  private scheduleRetry(generation: number, failed: boolean): void {
    if (generation !== this.generation || !this.record.enabled) return;
    if (this.connectedAt && Date.now() - this.connectedAt >= STABLE_CONNECTION_MS) this.attempts = 0;
    this.connectedAt = 0;
    clearTimeout(this.retryTimer);
    let delay = reconnectDelay(this.attempts++, this.options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS);
    // Backing off from 'restarting' (it ended on its own while closeFlooder closed it): a flood's hold-off.
    const backingOff = this.lifecycle.peek('back-off');
    if (backingOff.state === 'backing-off' && backingOff.forFlood) {
      delay = Math.max(delay, reconnectDelay(this.floods - 1, this.options.floodRestartDelaysMs ?? FLOOD_RESTART_DELAYS_MS));
    }
    this.lifecycle.fire('back-off', { failed, retryAt: Date.now() + delay });
    this.retryTimer = setTimeout(() => {
      if (generation !== this.generation) return;
      void this.connect(true);
    }, delay);
    this.retryTimer.unref();
  }

  private recordRootsRequest(roots: readonly WireRoot[], uris: readonly string[]): void {
    this.facts = {
      ...this.facts,
      lastRootsRequest: { at: Date.now(), uris },
      rootsRequestCount: this.facts.rootsRequestCount + 1,
    };
    this.addActivity('roots-request', { code: 'roots-answered', params: { count: roots.length } }, uris);
    this.firstRoots.answered();
    // Expected when it answers a restart the roots-change policy made: no new wish for folders.
    const expected = this.roots.answered(roots.length);
    this.hooks.rootsRequested(this.record.id, roots, expected);
    this.hooks.statusChanged(this.record.id);
  }

  /** It wrote faster than it may be read, or a line too long: say so (inbound-limits.ts decides). */
  private limited(generation: number, limitation: InboundLimitation): void {
    if (generation !== this.generation) return;
    // A line too long also ends the session with that text as the error: logged once, by onerror.
    if (limitation.kind !== 'long-line') this.addActivity('error', limitation.event);
    this.setStatus({ limited: limitation });
    if (limitation.kind === 'flood') this.closeFlooder();
  }

  /**
   * It kept flooding after its pauses: nothing more is read from it (the limiter refuses), the
   * session is closed, and the restart waits at least the flood delay (growing with each flood).
   */
  private closeFlooder(): void {
    this.floods++;
    // Shown at once ('restarting' reads "disconnected"): the session is over for the app now,
    // though a server busy flooding may take seconds to exit (the transport waits for it, then
    // signals it) before onclose runs.
    this.lifecycle.fire('restart');
    const client = this.client;
    const built = this.built;
    // After this turn: the requests read just before are being answered now (their handlers run
    // after the read), and closing first would fail each answer with "Not connected".
    setImmediate(() => {
      // client.onclose (set in connect) logs the end and schedules the restart; while still
      // negotiating, the connect's failure path does, once the transport ends.
      if (client) void client.close().catch(() => undefined);
      else void built?.transport.close().catch(() => undefined);
    });
  }

  addActivity(kind: ActivityKind, event: ActivityEvent, uris?: readonly string[], detail?: ActivityDetail): ActivityEntry {
    this.hooks.beforeActivity?.(this.record.id);
    const entry = this.log.add(kind, event, uris, detail);
    this.hooks.activity(this.record.id, entry);
    return entry;
  }

  private setStatus(patch: Partial<SessionFacts>): void {
    this.facts = { ...this.facts, ...patch };
    this.hooks.statusChanged(this.record.id);
  }
}

/** The app's own connections: read at the rate, then paused, then closed if the flood goes on. */
const APP_INBOUND_LIMITS: InboundLimits = { ...DEFAULT_INBOUND_LIMITS, penalties: DEFAULT_FLOOD_PENALTIES };

function streamEnded(stream: NodeJS.ReadableStream | undefined): Promise<void> {
  if (!stream || (stream as { readableEnded?: boolean }).readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
