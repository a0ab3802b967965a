// A connection's life as one named state and a table of the events that move it, instead of
// flags that can disagree. Used by the app's ServerConnection and (its subset) by the proxy.
// An event the table does not allow in the current state is a bug: it throws, loudly.
import type { LifecycleState } from '../../../shared/domain.js';

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

/** The states in which calls wait instead of being refused: a new process is on its way. */
export function holdsCalls(state: LifecycleState): boolean {
  return state === 'draining' || state === 'restarting' || state === 'connecting';
}

/** One connection's current state; tells its listeners after every transition. */
export class ConnectionLifecycle {
  private current: LifecycleState;
  private readonly listeners = new Set<(state: LifecycleState, event: LifecycleEvent) => void>();

  constructor(
    initial: LifecycleState = 'stopped',
    /** Told of every transition (after it), e.g. to publish the state. */
    private readonly changed?: (state: LifecycleState, event: LifecycleEvent) => void,
  ) {
    this.current = initial;
  }

  get state(): LifecycleState {
    return this.current;
  }

  is(...states: LifecycleState[]): boolean {
    return states.includes(this.current);
  }

  fire(event: LifecycleEvent): LifecycleState {
    this.current = nextState(this.current, event);
    this.changed?.(this.current, event);
    for (const listener of [...this.listeners]) listener(this.current, event);
    return this.current;
  }

  /** Resolves at the first state for which `done` is true (at once if the current one is). */
  until(done: (state: LifecycleState) => boolean): Promise<LifecycleState> {
    if (done(this.current)) return Promise.resolve(this.current);
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
