// A connection's life as one named state and a table of the events that move it, instead of
// flags that can disagree. Used by the app's ServerConnection and (its subset) by the proxy.
// An event the table does not allow in the current state is a bug: it throws, loudly.
import type { ConnectionState, LifecycleState } from '../../../shared/domain.js';
import type { HoldReason } from '../launch/server-failure.js';

export { DRAIN_LIMIT_MS } from '../../../shared/domain.js';

export type LifecycleEvent =
  /** A process or session is being started. */
  | 'start'
  /** Its handshake finished: calls go through. */
  | 'connected'
  /** A change of its folders is being applied to the running session (a list_changed, a live mount). */
  | 'apply-grants'
  | 'grants-applied'
  /** A restart waits for running calls; new calls are held. */
  | 'drain'
  /** The old process or session is being ended, to start again. */
  | 'restart'
  /** It failed or ended: a timer starts it again. */
  | 'back-off'
  /** It failed in a way no timer fixes: it waits for a change (a grant, a setting, Reconnect). */
  | 'hold'
  /** Switched off, closed, or not to be started. */
  | 'stop';

/** Which event moves which state to which. Anything not listed is illegal. */
export const TRANSITIONS: { readonly [S in LifecycleState]: { readonly [E in LifecycleEvent]?: LifecycleState } } = {
  stopped: { start: 'connecting', restart: 'restarting', stop: 'stopped' },
  // A newer start supersedes one in flight (its callbacks see a stale generation and end).
  connecting: { start: 'connecting', connected: 'ready', restart: 'restarting', 'back-off': 'backing-off', hold: 'held-off', stop: 'stopped' },
  ready: { 'apply-grants': 'applying-grants', drain: 'draining', restart: 'restarting', 'back-off': 'backing-off', hold: 'held-off', stop: 'stopped' },
  'applying-grants': {
    'apply-grants': 'applying-grants',
    'grants-applied': 'ready',
    drain: 'draining',
    restart: 'restarting',
    'back-off': 'backing-off',
    hold: 'held-off',
    stop: 'stopped',
  },
  // Its process may end while calls drain: then there is nothing left to wait for.
  draining: { restart: 'restarting', 'back-off': 'backing-off', hold: 'held-off', stop: 'stopped' },
  // A restart that finds the server switched off ends stopped; one closed for flooding backs off.
  restarting: { start: 'connecting', restart: 'restarting', 'back-off': 'backing-off', hold: 'held-off', stop: 'stopped' },
  'backing-off': { start: 'connecting', restart: 'restarting', stop: 'stopped' },
  'held-off': { start: 'connecting', restart: 'restarting', stop: 'stopped' },
};

/**
 * Where a connection is in its life, with the data that state needs and no other (VS Code's
 * McpConnectionState is the model): nothing kept beside it decides a transition.
 */
export type Lifecycle =
  /**
   * `final`: closed for good (the proxy's session is over): no event but another stop is legal.
   * `failed`: stopped because it failed (its sandbox could not be verified).
   */
  | { state: 'stopped'; final?: true; failed?: true }
  | { state: 'connecting' }
  | { state: 'ready' }
  /** `depth`: changes being applied at once (a live mount, then its list_changed); ready again when all are. */
  | { state: 'applying-grants'; depth: number }
  /** `restart`: the restart waiting for its running calls (the app's connections): another reason meanwhile joins it. */
  | { state: 'draining'; restart?: Promise<void> | undefined }
  | { state: 'restarting' }
  /**
   * `forFlood`: it was closed for flooding (it backs off from 'restarting'): a hold-off that a grant
   * does not cut short, as it does a crash's retry. `failed`: it failed to start (not: it ended).
   * `retryAt`: when its timer starts it again (epoch ms; ServerStatus.nextRetryAt).
   */
  | { state: 'backing-off'; forFlood: boolean; failed?: true; retryAt?: number | undefined }
  /**
   * `reason`: the failure only a change fixes; absent while it waits for a first folder, a new
   * secret or a carriable path. `failed`: it failed (not: it waits for its first folder). `at`:
   * since when (epoch ms; ServerStatus.held).
   */
  | { state: 'held-off'; reason?: HoldReason | undefined; failed?: true; at?: number | undefined };

/** What an event may carry into the state it leads to. */
export interface TransitionDetail {
  /** 'hold': why. */
  reason?: HoldReason | undefined;
  /** 'stop': for good. */
  final?: boolean | undefined;
  /** 'drain': the restart that follows it. */
  restart?: Promise<void> | undefined;
  /** 'back-off', 'hold', 'stop': it failed (the person sees an error), rather than ended or waits. */
  failed?: boolean | undefined;
  /** 'back-off': when its timer starts it again. */
  retryAt?: number | undefined;
  /** 'hold': since when. */
  at?: number | undefined;
}

/** The state `event` leads to from `from`, with its data; throws IllegalTransitionError when the table does not allow it. */
export function next(from: Lifecycle, event: LifecycleEvent, detail: TransitionDetail = {}): Lifecycle {
  if (from.state === 'stopped' && from.final) {
    if (event !== 'stop') throw new IllegalTransitionError(from.state, event);
    return from;
  }
  const to = nextState(from.state, event);
  // Nested changes: the last one to finish makes it ready.
  if (event === 'grants-applied' && from.state === 'applying-grants' && from.depth > 1) return { state: 'applying-grants', depth: from.depth - 1 };
  const failed = detail.failed ? ({ failed: true } as const) : {};
  switch (to) {
    case 'applying-grants':
      return { state: to, depth: from.state === 'applying-grants' ? from.depth + 1 : 1 };
    case 'backing-off':
      return { state: to, forFlood: from.state === 'restarting', retryAt: detail.retryAt, ...failed };
    case 'held-off':
      return { state: to, reason: detail.reason, at: detail.at, ...failed };
    case 'draining':
      return { state: to, restart: detail.restart };
    case 'stopped':
      return { state: to, ...(detail.final ? { final: true } : {}), ...failed };
    default:
      return { state: to };
  }
}

/** A state entered directly (a test's start, a new object), with its data's neutral values. */
function entered(state: LifecycleState): Lifecycle {
  if (state === 'applying-grants') return { state, depth: 1 };
  if (state === 'backing-off') return { state, forFlood: false };
  if (state === 'held-off') return { state };
  return { state };
}

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: LifecycleState,
    readonly event: LifecycleEvent,
  ) {
    super(`Connection lifecycle: '${event}' is not allowed in state '${from}'.`);
    this.name = 'IllegalTransitionError';
  }
}

/** The state after `event` in `from`; throws IllegalTransitionError when the table does not allow it. */
export function nextState(from: LifecycleState, event: LifecycleEvent): LifecycleState {
  const to = TRANSITIONS[from][event];
  if (!to) throw new IllegalTransitionError(from, event);
  return to;
}

/**
 * The one word for a connection's state (ServerStatus.state, for the CLI, the tray and the
 * badges' colour), derived from its lifecycle alone, so the two can never disagree. `enabled`:
 * the server's switch (a stopped server that is off reads "disabled").
 */
export function connectionStateOf(lifecycle: Lifecycle, enabled: boolean): ConnectionState {
  switch (lifecycle.state) {
    case 'connecting':
      return 'connecting';
    case 'ready':
    case 'applying-grants':
    case 'draining':
      return 'connected';
    case 'restarting':
      return 'disconnected';
    case 'stopped':
      if (!enabled) return 'disabled';
      return lifecycle.failed ? 'error' : 'disconnected';
    case 'backing-off':
    case 'held-off':
      return lifecycle.failed ? 'error' : 'disconnected';
  }
}

/** The states in which a session is open and answers calls. */
export function isConnected(state: LifecycleState): boolean {
  return state === 'ready' || state === 'applying-grants' || state === 'draining';
}

/** The states in which calls wait instead of being refused: a new process is on its way. */
export function holdsCalls(state: LifecycleState): boolean {
  return state === 'draining' || state === 'restarting' || state === 'connecting';
}

/** One connection's current state; tells its listeners after every transition. */
export class ConnectionLifecycle {
  private current: Lifecycle;
  private readonly listeners = new Set<(state: LifecycleState, event: LifecycleEvent) => void>();

  constructor(
    initial: LifecycleState = 'stopped',
    /** Told of every transition (after it), e.g. to publish the state. */
    private readonly changed?: (state: LifecycleState, event: LifecycleEvent) => void,
  ) {
    this.current = entered(initial);
  }

  get state(): LifecycleState {
    return this.current.state;
  }

  /** The state with its data. */
  get now(): Lifecycle {
    return this.current;
  }

  /** The state `event` would lead to, with its data, without moving (throws as fire would). */
  peek(event: LifecycleEvent, detail?: TransitionDetail): Lifecycle {
    return next(this.current, event, detail);
  }

  is(...states: LifecycleState[]): boolean {
    return states.includes(this.current.state);
  }

  fire(event: LifecycleEvent, detail?: TransitionDetail): LifecycleState {
    this.current = next(this.current, event, detail);
    const state = this.current.state;
    this.changed?.(state, event);
    for (const listener of [...this.listeners]) listener(state, event);
    return state;
  }

  /** Resolves at the first state for which `done` is true (at once if the current one is). */
  until(done: (state: LifecycleState) => boolean): Promise<LifecycleState> {
    if (done(this.current.state)) return Promise.resolve(this.current.state);
    return new Promise((resolve) => {
      const listener = (state: LifecycleState) => {
        if (!done(state)) return;
        this.listeners.delete(listener);
        resolve(state);
      };
      this.listeners.add(listener);
    });
  }
}
