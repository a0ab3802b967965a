// The transparent roots proxy. Every message passes between host and server as it came, except:
//  - the host's `initialize` (and, on 2026-07-28, each request's capabilities) declares roots, so
//    the server asks even when the host has none to give;
//  - the server's `roots/list` (and the roots part of an `input_required` round) is answered from
//    the registry, never by the host, under the default 'registry' policy;
//  - `notifications/roots/list_changed` comes from the proxy when the registry changes, and the
//    host's own is dropped (its roots are not what the server is told).
// The proxy's own requests to the server use ids no host uses (see ProxyIds); it sends no
// request to the host at all, so neither id space can collide.
import { PROXY_STATES, type ChangeForecast, type ProxyState, type ServerRecord, type WireRoot } from '../../shared/domain.js';
import type { SandboxSelfCheck } from '../../shared/sandbox.js';
import { DEFAULT_REASK_WINDOW_MS, RootsChangeDriver, type Exposure } from '../host/connections/roots-change-driver.js';
import { FirstRootsGate } from '../host/connections/first-roots-gate.js';
import { ConnectionLifecycle, DRAIN_LIMIT_MS, type LifecycleEvent, type TransitionDetail } from '../host/connections/connection-lifecycle.js';
import { DrainWait, drainCutText, drainText, type DrainOutcome } from '../host/connections/drain-wait.js';
import { SandboxSetupError } from '../host/sandbox/sandbox-types.js';
import { holdReason, type HoldReason } from '../host/launch/server-failure.js';
import {
  asSdkMessage,
  errorResponse,
  INTERNAL_ERROR,
  isMessage,
  isNotification,
  isObject,
  isRequest,
  isResponse,
  type JsonObject,
  type Message,
  type RequestId,
} from './json-rpc.js';
import {
  addRootsResponses,
  declareRoots,
  hostDeclaresRoots,
  MAX_INPUT_ROUNDS,
  modernProtocolVersion,
  retryParams,
  rootsResponses,
  rootsRound,
  withoutRootsRequests,
  type RootsRound,
} from './modern-roots.js';
import { CallTable, type PendingCall } from './call-table.js';
import { SerialRuns } from './serial-runs.js';
import { EraBridge, OPENING_TIMEOUT_MS, type OwnRequest } from './era-bridge.js';
import { initializeForServer } from './host-initialize.js';
import { MODERN_PROTOCOL_VERSION } from '../host/connections/era-choice.js';
import { FRESH_SESSION, type RootsPolicy, type RootsProxyHooks, type SessionStatus } from './proxy-session.js';
import type { HostChannel } from './stdio-channel.js';
import { toolErrorTexts, withNote } from './refusal-notes.js';
import type { Upstream } from './upstream.js';
import { englishOf } from '../../shared/i18n/activity-message.js';
import { holdEvent } from '../host/connections/activity-events.js';

export { FRESH_SESSION, type RootsPolicy, type RootsProxyHooks, type SessionStatus } from './proxy-session.js';

export class RootsProxy {
  status: SessionStatus = { ...FRESH_SESSION };
  /** Called once when the session is over for a reason other than close(): the exit code. */
  onclose?: (code: number) => void;
  private upstream: Upstream | undefined;
  private generation = 0;
  private queue: Message[] = [];
  /** Host requests the server has not answered yet, and the proxy's own. */
  private readonly calls = new CallTable();
  /** The host's initialize as the server got it: replayed to a restarted server. */
  private initialize: Message | undefined;
  /** ...and as the host sent it: sent again if a restart cuts it off before its answer. */
  private hostInitialize: Message | undefined;
  /**
   * The host's side finished its handshake (it sent notifications/initialized). A fact of the
   * host's session, not of the server's lifecycle: it outlives the server's restarts, and only
   * says whether a change can be told yet; it never moves the lifecycle.
   */
  private initialized = false;
  /** Roots keys of a mixed input_required round the host is answering the rest of. */
  private pendingRootsKeys: string[] = [];
  /** What a change of its folders does (roots-change-driver.ts): the started folders, what it was told, whether it re-asks. */
  private readonly roots: RootsChangeDriver;
  /** One restart at a time; reasons that come meanwhile make one more. */
  private readonly restarts = new SerialRuns<string>((reason) => (this.closing ? Promise.resolve() : this.restartOnce(reason)));
  private closed: Promise<void> | undefined;
  /** Every upstream opened and not yet shut, the current one and any a restart is closing. */
  private readonly live = new Set<Upstream>();
  /** The start in flight, if any. */
  private starting: Promise<Upstream> | undefined;
  private readonly shutting = new Map<Upstream, Promise<void>>();
  /** Each live upstream's limit watch (limit-watch.ts), stopped when it is shut. */
  private readonly limitWatches = new Map<Upstream, () => void>();
  /** Talks to the server in the era that carries its folders, whatever the host speaks. */
  private readonly bridge: EraBridge;
  /** The opening exchange the bridge runs: host messages wait for it. */
  private opening: Promise<void> | undefined;
  /** After each handshake, host messages wait for the server's first roots/list (first-roots-gate.ts). */
  private readonly firstRoots = new FirstRootsGate();
  /** Its state (a subset of the app's connection lifecycle, with its data), written to status.state on every change. */
  private readonly lifecycle = new ConnectionLifecycle();

  /** A server answers the host: its handshake (or the replay of the host's) is done, and no restart has begun. */
  private get ready(): boolean {
    return this.lifecycle.is('ready', 'draining');
  }

  /** close() was called: the session is over for good (its lifecycle's final stop). */
  private get closing(): boolean {
    const now = this.lifecycle.now;
    return now.state === 'stopped' && now.final === true;
  }
  /** A restart waiting for the host's running calls; host requests are queued meanwhile. */
  private readonly drain = new DrainWait();
  /** The server could not be started: every host request is answered with this, and nothing runs. */
  private refusal: { text: string; answered: () => void } | undefined;

  constructor(
    private readonly host: HostChannel,
    private readonly hooks: RootsProxyHooks,
    readonly policy: RootsPolicy = 'registry',
    reaskWindowMs = DEFAULT_REASK_WINDOW_MS,
    /** How long a restart waits for running calls (DRAIN_LIMIT_MS; tests shorten it). */
    private readonly drainLimitMs = DRAIN_LIMIT_MS,
  ) {
    host.onmessage = (message) => this.fromHost(message);
    this.bridge = new EraBridge({
      transportKind: () => this.hooks.transportKind(),
      carriesRoots: () => this.policy === 'registry' && !this.hooks.injectsRoots(),
      request: (message, timeoutMs) => this.requestUpstream(message, timeoutMs),
      sendUpstream: (message) => this.sendUpstream(message),
      toHost: (message) => this.host.send(message),
      setUpstreamVersion: (version) => this.upstream?.transport.setProtocolVersion?.(version),
      opened: (initialize, result) => {
        this.initialize = initialize;
        this.markInitialized();
        this.noteInitializeResult(result);
      },
      chose: (era, eraReason, extra = {}) => {
        const host = extra.host && typeof extra.host.name === 'string' ? { name: extra.host.name, version: String(extra.host.version ?? '') } : undefined;
        const version = era === 'modern' ? MODERN_PROTOCOL_VERSION : this.status.protocolVersion;
        this.update({ era, eraReason, protocolVersion: version, ...(host ? { host } : {}), ...(extra.hostOffersRoots !== undefined ? { hostOffersRoots: extra.hostOffersRoots } : {}) });
      },
    });
    this.roots = new RootsChangeDriver(
      {
        generation: () => this.generation,
        // Before `initialized` the server has not asked yet: it reads the newest list when it does.
        connected: () => this.ready && this.initialized,
        era: () => this.status.era,
        injectsRoots: () => this.hooks.injectsRoots(),
        confinement: () => this.status.confinement,
        startingSandboxed: () => this.starting !== undefined && this.hooks.sandboxed?.() === true,
        // A held server (its failure needs a change) starts again on a change of its folders.
        waitingToRetry: () => {
          const now = this.lifecycle.now;
          return now.state === 'held-off' && now.reason !== undefined;
        },
        liveTarget: () => ({ live: this.upstream?.live, pid: this.upstream?.pid, writableByChoice: this.upstream?.writableByChoice }),
        // The registry's grants reach it (policy 'registry', checked by rootsChanged): always told.
        mayNotify: () => true,
        sendListChanged: () => {
          this.update({ listChangedCount: this.status.listChangedCount + 1 });
          this.sendUpstream({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
          return true;
        },
        restart: (event) => void this.restart(englishOf(event)),
        verified: (check) => this.update({ confinement: { ...this.status.confinement, state: 'enforced', selfCheck: check } }),
        rereadsRoots: (value) => this.update({ rereadsRoots: value }),
        activity: (_kind, event) => this.hooks.log(englishOf(event)),
      },
      reaskWindowMs,
    );
  }

  async start(): Promise<void> {
    await this.connect();
  }

  /** The registry (or a folder's accessibility) changed this server's effective roots to `after`. */
  rootsChanged(after: Exposure): void {
    if (this.policy !== 'registry' || this.closing) return;
    this.roots.changed(after);
  }

  /**
   * What granting or revoking one of its folders would do now: the decision rootsChanged would make,
   * asked ahead, for the app's matrix (run-proxy.ts writes it into the status file). Undefined where
   * the registry's grants do not reach the server (the host's own roots are passed on) or the session is over.
   */
  changeForecast(record: Pick<ServerRecord, 'enabled' | 'sharing'>): ChangeForecast | undefined {
    if (this.policy !== 'registry' || this.closing) return undefined;
    return this.roots.forecast(record, this.hooks.exposure());
  }

  /** Restarts the real server behind the host's back: a config change or a revocation. */
  restart(reason: string): Promise<void> {
    return this.closing ? Promise.resolve() : this.restarts.run(reason);
  }

  /**
   * Ends the session and every server process it started, whatever it was doing: one being
   * restarted, one still starting, one stuck in its handshake. Resolves once they are gone (the
   * transport's close: stdin closed, then SIGTERM, then SIGKILL, as the MCP spec's stdio shutdown says).
   */
  close(): Promise<void> {
    if (this.closed) return this.closed;
    this.generation++;
    this.firstRoots.release();
    this.drain.cancel();
    this.roots.stop();
    this.calls.abandonOwn('The proxy is closing.');
    this.upstream = undefined;
    this.go('stop', {}, { final: true });
    this.closed = (async () => {
      // A start in flight: what it gives is shut too (connect() shuts it as well, the same once).
      const started = await this.starting?.catch(() => undefined);
      if (started) this.live.add(started);
      await Promise.all([...this.live].map((upstream) => this.shut(upstream)));
    })();
    return this.closed;
  }

  /**
   * The server could not be started and will not be: the host is owed an answer, so its requests
   * (its initialize, waiting now or still to come) are answered with `text` as their error instead of
   * the silence of an exit. Resolves once one request has been answered, or after `waitMs` if none came.
   */
  refuseAll(text: string, waitMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => answered(), waitMs);
      timer.unref();
      const answered = () => {
        clearTimeout(timer);
        resolve();
      };
      this.refusal = { text, answered };
      this.update({ error: text });
      const queued = this.queue;
      this.queue = [];
      for (const message of queued) this.fromHost(message);
    });
  }

  /** The pids of the server processes this session started that may still run. */
  serverPids(): number[] {
    return [...this.live].flatMap((upstream) => (upstream.pid ? [upstream.pid] : []));
  }

  /** A new list of allowed hosts for the running server (the registry changed one list for another): applied live. */
  async allowedHostsChanged(hosts: readonly string[]): Promise<void> {
    const egress = this.upstream?.egress;
    if (!egress) return;
    try {
      await egress.setHosts(hosts);
      this.hooks.log(`its allowed hosts changed: applied live, without a restart (${hosts.length ? hosts.join(', ') : 'none'})`);
    } catch (error) {
      await this.restart(englishOf({ code: 'restart-live', params: { why: 'hosts-failed', detail: (error as Error).message } }));
    }
  }

  /** Closes one upstream; called twice for the same one, both wait for the one close. */
  private shut(upstream: Upstream): Promise<void> {
    let shutting = this.shutting.get(upstream);
    if (!shutting) {
      this.limitWatches.get(upstream)?.();
      this.limitWatches.delete(upstream);
      shutting = upstream.transport
        .close()
        .catch(() => undefined)
        .then(async () => {
          this.live.delete(upstream);
          this.shutting.delete(upstream);
          // Its placeholders go once its sandbox is gone: waited for (at most 2 s), since the proxy may exit next.
          await Promise.race([upstream.release?.(), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
        });
      this.shutting.set(upstream, shutting);
    }
    return shutting;
  }

  // ---- connecting ----------------------------------------------------------------------------

  private async connect(): Promise<void> {
    // A restart that was closing the old server when the host left must not start a new one.
    if (this.closing) return;
    const generation = ++this.generation;
    this.go('start', { error: undefined, held: undefined });
    // Read now, in the same tick as the spawn that uses them: a change after this restarts it again.
    this.roots.startedWith(this.hooks.exposure().folders);
    this.roots.newSession();
    let upstream: Upstream;
    const starting = this.hooks.openUpstream({
      onmessage: (message) => {
        if (generation === this.generation && isMessage(message)) this.fromServer(message);
      },
      onclose: () => {
        if (generation === this.generation) void this.ended(generation);
      },
      onerror: (error) => {
        if (generation === this.generation) this.hooks.log(`server transport: ${error.message}`);
      },
    });
    this.starting = starting;
    try {
      upstream = await starting.finally(() => {
        if (this.starting === starting) this.starting = undefined;
      });
    } catch (error) {
      const hold = error instanceof SandboxSetupError ? holdReason({ blocked: false, setup: error.code }) : undefined;
      if (!hold || generation !== this.generation) throw error;
      this.hold(hold, `Not started: ${(error as Error).message}`);
      return;
    }
    this.live.add(upstream);
    if (generation !== this.generation) {
      await this.shut(upstream);
      return;
    }
    this.upstream = upstream;
    this.update({ serverPid: upstream.pid, confinement: upstream.confinement });
    if (upstream.verify) await this.verifyConfinement(generation, upstream.verify);
    if (generation !== this.generation) return;
    // A limit it reaches is the kernel refusing it more: said on stderr once, where hosts keep the server's log.
    const stopWatching = upstream.watchLimits?.((event) => this.hooks.log(`limit reached: ${englishOf(event)}`));
    if (stopWatching) this.limitWatches.set(upstream, stopWatching);
    if (this.initialize) {
      try {
        await this.replayHandshake();
      } catch (error) {
        // Held meanwhile (it ended blocked): the hold has said why; this start is over.
        if (generation !== this.generation) return;
        throw error;
      }
    }
    if (generation !== this.generation) return;
    this.go('connected');
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) this.fromHost(message);
  }

  /**
   * Proves the sandbox of the running server from outside. One that cannot be proved is not used:
   * the host gets errors, never a server that may see more than its grants.
   */
  private async verifyConfinement(generation: number, verify: () => Promise<SandboxSelfCheck>): Promise<void> {
    const check = await verify();
    if (generation !== this.generation) return;
    this.update({ confinement: { ...this.status.confinement, state: 'enforced', selfCheck: check } });
    if (check.verified) {
      this.hooks.log(`sandbox verified: ${check.detail}`);
      return;
    }
    throw new Error(`its sandbox could not be verified (${check.detail}); it was not run unconfined`);
  }

  /** A restarted server gets the host's handshake again; the host never sees it. */
  private async replayHandshake(): Promise<void> {
    const initialize = this.initialize as Message;
    const response = await this.requestUpstream({ method: 'initialize', params: initialize.params }, OPENING_TIMEOUT_MS).catch(() => {
      throw new Error('The restarted server did not answer initialize.');
    });
    if (response.error) throw new Error(`The restarted server refused initialize: ${response.error.message}`);
    this.noteInitializeResult(response.result);
    if (this.initialized) this.sendUpstream({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** A request of the proxy's own to the server (never seen by the host); rejects after `timeoutMs`. */
  private requestUpstream(message: OwnRequest, timeoutMs: number): Promise<Message> {
    return this.calls.request((id) => this.sendUpstream({ jsonrpc: '2.0', id, method: message.method, ...(message.params ? { params: message.params } : {}) }), timeoutMs, message.method);
  }

  private async restartOnce(reason: string): Promise<void> {
    this.hooks.log(reason);
    const drained = await this.drainCalls(reason);
    if (drained === 'cancelled' || this.closing) return;
    this.generation++;
    const old = this.upstream;
    this.upstream = undefined;
    // Not ready ('restarting') before the gate opens: what it held stays queued for the new process.
    this.go('restart', { restartCount: this.status.restartCount + 1, draining: undefined });
    this.firstRoots.release();
    // Calls still running die with the old process: the host gets an error saying what happened,
    // instead of silence. An initialize still in flight is sent again instead: the host is owed its handshake.
    const cut = drained === 'limit' ? drainCutText('The server', reason, this.drainLimitMs) : `The server was restarted before it answered this call. Why: ${reason}`;
    let ended = 0;
    for (const [hostId, call] of this.calls.entries()) {
      if (call.method === 'initialize' && this.hostInitialize) {
        this.initialize = undefined;
        this.queue.unshift(this.hostInitialize);
      } else {
        ended++;
        this.host.send(errorResponse(hostId, INTERNAL_ERROR, cut));
      }
    }
    if (ended > 0) this.hooks.log(`Ended ${ended} running call(s) with an error: ${cut}`);
    this.calls.clear();
    this.pendingRootsKeys = [];
    this.roots.notRunning();
    this.roots.newSession();
    if (old) await this.shut(old);
    try {
      await this.connect();
    } catch (error) {
      this.serverGone(`Could not restart the server: ${(error as Error).message}`);
    }
  }

  /**
   * Before a restart: while the host has calls running on a ready server, wait for them to finish
   * (at most drainLimitMs), holding its new requests; they go to the new process after its handshake.
   */
  private async drainCalls(reason: string): Promise<DrainOutcome> {
    // An initialize in flight is not waited for: the new process gets it again.
    const running = () => this.runningCalls();
    if (!this.ready || !this.upstream || running() === 0) return 'finished';
    const until = Date.now() + this.drainLimitMs;
    this.go('drain', { draining: { calls: running(), until, limitMs: this.drainLimitMs, reason } });
    this.hooks.log(`${drainText(running(), this.drainLimitMs)} ${reason}`);
    const outcome = await this.drain.wait(running, this.drainLimitMs);
    if (outcome === 'limit') this.hooks.log(`Stopped waiting after ${Math.round(this.drainLimitMs / 1000)} s: ${running()} call(s) still running.`);
    return outcome;
  }

  private runningCalls(): number {
    return this.calls.entries().filter(([, call]) => call.method !== 'initialize').length;
  }

  /** A host call was answered or forgotten: a draining restart may go on. */
  private callEnded(): void {
    if (!this.drain.waiting) return;
    const draining = this.status.draining;
    if (draining) this.update({ draining: { ...draining, calls: this.runningCalls() } });
    this.drain.callEnded();
  }

  /** Its process ended: held when the sandbox stood in its way (no restart would help), else the session is over. */
  private async ended(generation: number): Promise<void> {
    const blocked = await this.upstream?.blocked?.();
    if (generation !== this.generation || this.closing) return;
    const hold = holdReason({ blocked: blocked !== undefined });
    if (hold) this.hold(hold, `The server closed the connection. ${blocked}`);
    else this.serverGone(['The server closed the connection.', this.howItEnded(), this.upstream?.endedNote].filter(Boolean).join(' '));
  }

  /**
   * Its exit code or signal, and, when it ended before answering the handshake, what the app says
   * of a command that is not an MCP server (a host saw only "closed the connection", #30).
   */
  private howItEnded(): string | undefined {
    const exit = this.upstream?.exit?.();
    if (!exit || (exit.code === null && exit.signal === null)) return undefined;
    const how = exit.code !== null ? `It exited with code ${exit.code}` : `It was stopped by ${exit.signal}`;
    // The host's initialize still unanswered: it never spoke MCP.
    const answered = !this.calls.entries().some(([, call]) => call.method === 'initialize');
    return answered ? `${how}.` : `${how} before answering. Check its command: is it an MCP server that speaks over stdio?`;
  }

  /**
   * Its failure needs a change (a grant, a setting), so nothing is retried and the host's session
   * stays open: its calls are answered with why, and the next change of folders or config starts
   * the server again (the roots-change policy's 'retry', run-proxy's restart).
   */
  private hold(reason: HoldReason, what: string): void {
    this.generation++;
    this.firstRoots.release();
    this.drain.cancel();
    const old = this.upstream;
    this.upstream = undefined;
    this.roots.notRunning();
    this.roots.newSession();
    void old?.transport.close().catch(() => undefined);
    const error = `${what} ${englishOf(holdEvent(reason))}`;
    this.hooks.log(error);
    for (const [hostId] of this.calls.entries()) this.host.send(errorResponse(hostId, INTERNAL_ERROR, error));
    // A replayed handshake waiting on the ended process must not wait out its timeout.
    this.calls.failOwn((id) => errorResponse(id, INTERNAL_ERROR, error));
    this.calls.clear();
    this.pendingRootsKeys = [];
    this.go('hold', { error, held: { reason, at: Date.now() }, draining: undefined }, { reason });
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) this.fromHost(message);
  }

  private serverGone(reason: string): void {
    if (this.closing) return;
    this.hooks.log(reason);
    this.drain.cancel();
    for (const [hostId] of this.calls.entries()) this.host.send(errorResponse(hostId, INTERNAL_ERROR, reason));
    this.calls.clear();
    this.update({ error: reason, draining: undefined });
    void this.close().then(() => this.onclose?.(1));
  }

  // ---- host -> server ------------------------------------------------------------------------

  private fromHost(incoming: Message): void {
    if (this.refusal) {
      if (!isRequest(incoming)) return;
      this.host.send(errorResponse(incoming.id, INTERNAL_ERROR, this.refusal.text));
      this.refusal.answered();
      return;
    }
    const now = this.lifecycle.now;
    if (now.state === 'held-off' && now.reason !== undefined) {
      // Nothing runs to take it: a request is answered with why at once, a notification dropped.
      if (isRequest(incoming)) this.host.send(errorResponse(incoming.id, INTERNAL_ERROR, this.status.error ?? englishOf(holdEvent(now.reason))));
      return;
    }
    // The host's answers to the server's own requests pass: the server may wait on one before it
    // asks for roots, or a draining call on one before it finishes.
    if (!this.ready || this.opening || (this.firstRoots.holding && !isResponse(incoming)) || (this.drain.waiting && isRequest(incoming))) {
      this.queue.push(incoming);
      return;
    }
    this.update({ messagesFromHost: this.status.messagesFromHost + 1 });
    if (this.bridge.takesOpening(incoming)) {
      this.opening = this.bridge.open(incoming).finally(() => {
        this.opening = undefined;
        const queued = this.queue;
        this.queue = [];
        for (const message of queued) this.fromHost(message);
      });
      return;
    }
    const message = this.bridge.fromHost(incoming);
    if (!message) return;
    if (isRequest(message)) {
      const params = this.rewriteRequest(message.method, message.params);
      const outgoing = params === message.params ? message : { ...message, params };
      if (message.method === 'initialize') {
        this.hostInitialize = message;
        this.initialize = outgoing;
      }
      this.calls.add(message.id, message.method, params);
      this.sendUpstream(outgoing, message.id);
      return;
    }
    if (isNotification(message)) {
      if (message.method === 'notifications/roots/list_changed' && this.policy === 'registry') return;
      if (message.method === 'notifications/initialized') this.markInitialized();
      if (message.method === 'notifications/cancelled' && isObject(message.params)) {
        // A cancelled call may never be answered: forget it, or a long session leaks them.
        const call = this.calls.get(message.params.requestId as RequestId);
        this.calls.delete(message.params.requestId as RequestId);
        this.callEnded();
        if (call && call.upstreamId !== message.params.requestId) {
          this.sendUpstream({ ...message, params: { ...message.params, requestId: call.upstreamId } });
          return;
        }
      }
    }
    // Notifications, and the host's answers to the server's own requests.
    this.sendUpstream(message);
  }

  private rewriteRequest(method: string, params: JsonObject | undefined): JsonObject | undefined {
    const version = modernProtocolVersion(params);
    // Streamable HTTP sends the version as a header; the SDK client would set it, so we do.
    if (version) {
      this.upstream?.transport.setProtocolVersion?.(version);
      if (this.status.era !== 'modern') this.update({ era: 'modern', protocolVersion: version, eraReason: this.status.eraReason ?? 'host-era' });
    }
    if (method === 'initialize') return this.rewriteInitialize(params);
    if (hostDeclaresRoots(params) && !this.status.hostOffersRoots) this.update({ hostOffersRoots: true });
    if (this.policy !== 'registry' || this.hooks.injectsRoots()) return params;
    let next = declareRoots(params) ?? params;
    if (this.pendingRootsKeys.length > 0 && (next?.inputResponses !== undefined || next?.requestState !== undefined)) {
      next = addRootsResponses(next, rootsResponses(this.pendingRootsKeys, this.answerRoots()));
      this.pendingRootsKeys = [];
    }
    return next;
  }

  private rewriteInitialize(params: JsonObject | undefined): JsonObject | undefined {
    const rewrite = initializeForServer(params, this.policy, this.hooks.injectsRoots());
    this.update({ era: 'legacy', eraReason: this.status.eraReason ?? 'host-era', hostOffersRoots: rewrite.hostOffersRoots, host: rewrite.host });
    return rewrite.params;
  }

  // ---- server -> host ------------------------------------------------------------------------

  private fromServer(message: Message): void {
    this.update({ messagesFromServer: this.status.messagesFromServer + 1 });
    if (isRequest(message)) {
      if (message.method === 'roots/list' && this.policy === 'registry') {
        this.sendUpstream({ jsonrpc: '2.0', id: message.id, result: { roots: [...this.answerRoots()] } });
        return;
      }
      this.host.send(message);
      return;
    }
    if (isResponse(message) && message.id !== undefined && message.id !== null) {
      this.responseFromServer(message, message.id);
      return;
    }
    this.host.send(message);
  }

  private responseFromServer(message: Message, upstreamId: RequestId): void {
    const own = this.calls.settleOwn(upstreamId);
    if (own) {
      own(message);
      return;
    }
    const hostId = this.calls.hostIdOf(upstreamId);
    const call = this.calls.get(hostId);
    if (call && this.policy === 'registry' && message.result) {
      const round = rootsRound(message.result);
      if (round && this.fulfilRound(hostId, call, round, message.result)) return;
    }
    this.calls.delete(hostId);
    if (call?.method === 'initialize' && message.result) this.noteInitializeResult(message.result);
    const noted = call?.method === 'tools/call' ? this.withRefusalNote(message) : message;
    this.host.send(hostId === upstreamId ? noted : { ...noted, id: hostId });
    this.callEnded();
  }

  /** A tool's error naming a path its sandbox refused gets a note beside it (the server's words are kept). */
  private withRefusalNote(message: Message): Message {
    const texts = toolErrorTexts(message.result);
    const note = texts.length > 0 ? this.upstream?.refusalNote?.(texts) : undefined;
    if (!note || !message.result) return message;
    this.hooks.log(note);
    return { ...message, result: withNote(message.result, note) };
  }

  /** Answers the roots part of an input_required round. Returns false to let the host see it as is. */
  private fulfilRound(hostId: RequestId, call: PendingCall, round: RootsRound, result: JsonObject): boolean {
    const responses = rootsResponses(round.rootsKeys, this.answerRoots());
    if (round.otherKeys.length > 0) {
      // Elicitation or sampling: only the host can answer those; its retry gets our roots added.
      this.pendingRootsKeys = round.rootsKeys;
      this.calls.delete(hostId);
      this.host.send({ jsonrpc: '2.0', id: hostId, result: withoutRootsRequests(result, round.rootsKeys) });
      this.callEnded();
      return true;
    }
    if (call.rounds >= MAX_INPUT_ROUNDS) {
      this.calls.delete(hostId);
      this.host.send(errorResponse(hostId, INTERNAL_ERROR, `The server asked for roots ${MAX_INPUT_ROUNDS} times in one call.`));
      this.callEnded();
      return true;
    }
    call.rounds++;
    call.params = retryParams(call.params, responses, round.requestState);
    this.calls.retry(hostId, call);
    this.sendUpstream({ jsonrpc: '2.0', id: call.upstreamId, method: call.method, params: call.params }, hostId);
    return true;
  }

  private noteInitializeResult(result: JsonObject | undefined): void {
    const version = typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined;
    if (version) this.upstream?.transport.setProtocolVersion?.(version);
    const info = result?.serverInfo;
    this.update({
      protocolVersion: version,
      serverInfo: isObject(info) && typeof info.name === 'string' ? { name: info.name, version: String(info.version ?? '') } : undefined,
    });
  }

  private answerRoots(): readonly WireRoot[] {
    const roots = this.hooks.exposure().roots;
    this.firstRoots.answered();
    this.roots.answered(roots.length);
    this.update({
      lastRootsRequest: { at: Date.now(), uris: roots.map((root) => root.uri) },
      rootsRequestCount: this.status.rootsRequestCount + 1,
    });
    return roots;
  }

  // ---- plumbing ------------------------------------------------------------------------------

  /** Sends to the server; when `failsCall` is a host request id, a send failure answers it. */
  private sendUpstream(message: Message, failsCall?: RequestId): void {
    const upstream = this.upstream;
    if (!upstream) return;
    if (message.method === 'notifications/initialized') this.awaitFirstRoots();
    upstream.transport.send(asSdkMessage(message)).catch((error: unknown) => {
      const text = `Could not reach the server: ${error instanceof Error ? error.message : String(error)}`;
      this.hooks.log(text);
      if (failsCall !== undefined && this.calls.delete(failsCall)) {
        this.host.send(errorResponse(failsCall, INTERNAL_ERROR, text));
        this.callEnded();
      }
    });
  }

  /** The server was just initialized: it asks for its folders now, if it takes them as roots in a 2025-era session. */
  private awaitFirstRoots(): void {
    if (this.policy !== 'registry' || this.hooks.injectsRoots() || this.status.era === 'modern') return;
    this.firstRoots.hold(undefined, () => {
      if (!this.ready || this.opening) return;
      const queued = this.queue;
      this.queue = [];
      for (const message of queued) this.fromHost(message);
    });
  }

  /** Moves the lifecycle (an illegal move throws: a bug) and shows the new state with `patch`. */
  private go(event: LifecycleEvent, patch: Partial<SessionStatus> = {}, detail?: TransitionDetail): void {
    const state = this.lifecycle.fire(event, detail);
    if (!isProxyState(state)) throw new Error(`The proxy has no state '${state}'.`);
    this.update({ ...patch, state });
  }

  /**
   * The host finished its handshake: from now a change can be told to the server, so the forecast the
   * status file carries changes too (a status written before still said "restarts", seen under load).
   */
  private markInitialized(): void {
    if (this.initialized) return;
    this.initialized = true;
    this.hooks.statusChanged(this.status);
  }

  private update(patch: Partial<SessionStatus>): void {
    this.status = { ...this.status, ...patch };
    this.hooks.statusChanged(this.status);
  }
}

function isProxyState(state: string): state is ProxyState {
  return (PROXY_STATES as readonly string[]).includes(state);
}
