import { describe, expect, it } from 'vitest';
import { LIFECYCLE_STATES, PROXY_STATES, type LifecycleState } from '../../../../shared/domain.js';
import { ConnectionLifecycle, connectionStateOf, holdsCalls, isConnected, IllegalTransitionError, next, nextState, TRANSITIONS, type LifecycleEvent } from '../../../../electron/host/connections/connection-lifecycle.js';

const EVENTS: LifecycleEvent[] = ['start', 'connected', 'apply-grants', 'grants-applied', 'drain', 'restart', 'back-off', 'hold', 'stop'];

// The specification, written out: [from, event, to, what it is in the connection's life].
const ALLOWED: [LifecycleState, LifecycleEvent, LifecycleState, string][] = [
  ['stopped', 'start', 'connecting', 'a server is started'],
  ['stopped', 'restart', 'restarting', 'a config change (enable) restarts a stopped server'],
  ['stopped', 'stop', 'stopped', 'stopping twice is harmless'],
  ['connecting', 'start', 'connecting', 'a newer start supersedes the one in flight'],
  ['connecting', 'connected', 'ready', 'its handshake finished'],
  ['connecting', 'restart', 'restarting', 'a change while it starts restarts it (or it floods while negotiating)'],
  ['connecting', 'back-off', 'backing-off', 'it failed to start: retried on a timer'],
  ['connecting', 'hold', 'held-off', 'it failed in a way only a change fixes'],
  ['connecting', 'stop', 'stopped', 'switched off while starting'],
  ['ready', 'apply-grants', 'applying-grants', 'its folders changed and it is being told'],
  ['ready', 'drain', 'draining', 'a restart waits for its running calls'],
  ['ready', 'restart', 'restarting', 'a restart with no call running, or Reconnect'],
  ['ready', 'back-off', 'backing-off', 'it exited: retried on a timer'],
  ['ready', 'hold', 'held-off', 'it exited blocked by the sandbox'],
  ['ready', 'stop', 'stopped', 'switched off, or its sandbox could not be verified'],
  ['applying-grants', 'apply-grants', 'applying-grants', 'another change while the last is being told'],
  ['applying-grants', 'grants-applied', 'ready', 'it was told'],
  ['applying-grants', 'drain', 'draining', 'a restart comes while a change is being told'],
  ['applying-grants', 'restart', 'restarting', 'Reconnect while a change is being told'],
  ['applying-grants', 'back-off', 'backing-off', 'it exited while being told'],
  ['applying-grants', 'hold', 'held-off', 'it exited blocked while being told'],
  ['applying-grants', 'stop', 'stopped', 'switched off while being told'],
  ['draining', 'restart', 'restarting', 'its calls finished, or the drain limit passed'],
  ['draining', 'back-off', 'backing-off', 'it exited while its calls drained'],
  ['draining', 'hold', 'held-off', 'it exited blocked while its calls drained'],
  ['draining', 'stop', 'stopped', 'switched off while draining: at once'],
  ['restarting', 'start', 'connecting', 'the old process is gone: the new one starts'],
  ['restarting', 'restart', 'restarting', 'another restart while one is under way'],
  ['restarting', 'back-off', 'backing-off', 'closed for flooding: the new start waits its hold-off'],
  ['restarting', 'hold', 'held-off', 'closed for flooding, and the sandbox had blocked it'],
  ['restarting', 'stop', 'stopped', 'the restart found it switched off'],
  ['backing-off', 'start', 'connecting', 'its retry timer fired'],
  ['backing-off', 'restart', 'restarting', 'a change or Reconnect cuts the wait short'],
  ['backing-off', 'stop', 'stopped', 'switched off while waiting to retry'],
  ['held-off', 'start', 'connecting', 'a change it waited for starts it'],
  ['held-off', 'restart', 'restarting', 'a grant, setting or Reconnect restarts it'],
  ['held-off', 'stop', 'stopped', 'switched off while held'],
];

describe('connection lifecycle', () => {
  it.each(ALLOWED)('%s --%s--> %s: %s', (from, event, to) => {
    expect(nextState(from, event)).toBe(to);
    const lifecycle = new ConnectionLifecycle(from);
    expect(lifecycle.fire(event)).toBe(to);
    expect(lifecycle.state).toBe(to);
  });

  it('rejects every other event in every state, loudly, and stays where it was', () => {
    const allowed = new Set(ALLOWED.map(([from, event]) => `${from} ${event}`));
    let rejected = 0;
    for (const from of LIFECYCLE_STATES) {
      for (const event of EVENTS) {
        if (allowed.has(`${from} ${event}`)) continue;
        const lifecycle = new ConnectionLifecycle(from);
        expect(() => lifecycle.fire(event), `${from} --${event}-->`).toThrow(IllegalTransitionError);
        expect(lifecycle.state).toBe(from);
        rejected++;
      }
    }
    // The table allows exactly what the specification lists, no more.
    const tableSize = LIFECYCLE_STATES.reduce((sum, state) => sum + Object.keys(TRANSITIONS[state]).length, 0);
    expect(tableSize).toBe(ALLOWED.length);
    expect(rejected).toBe(LIFECYCLE_STATES.length * EVENTS.length - ALLOWED.length);
  });

  it('says its state in one word derived from the lifecycle alone (ServerStatus.state)', () => {
    const word = (event: LifecycleEvent, from: LifecycleState, failed?: boolean, enabled = true) => {
      const lifecycle = new ConnectionLifecycle(from);
      lifecycle.fire(event, { failed });
      return connectionStateOf(lifecycle.now, enabled);
    };
    expect(word('start', 'stopped')).toBe('connecting');
    expect(word('connected', 'connecting')).toBe('connected');
    expect(word('apply-grants', 'ready')).toBe('connected');
    expect(word('drain', 'ready')).toBe('connected');
    expect(word('restart', 'ready')).toBe('disconnected');
    // Ended after it ran, or waiting for its first folder: not an error.
    expect(word('back-off', 'ready')).toBe('disconnected');
    expect(word('hold', 'connecting')).toBe('disconnected');
    // Failed to start, or its sandbox not verified: an error until it starts again.
    expect(word('back-off', 'connecting', true)).toBe('error');
    expect(word('hold', 'connecting', true)).toBe('error');
    expect(word('stop', 'ready', true)).toBe('error');
    expect(word('stop', 'ready')).toBe('disconnected');
    expect(word('stop', 'ready', true, false)).toBe('disabled');
    // A failure is that state's data: the next start forgets it.
    const lifecycle = new ConnectionLifecycle('connecting');
    lifecycle.fire('back-off', { failed: true });
    lifecycle.fire('start');
    expect(connectionStateOf(lifecycle.now, true)).toBe('connecting');
    expect(LIFECYCLE_STATES.filter(isConnected)).toEqual(['ready', 'applying-grants', 'draining']);
  });

  it("carries a back-off's retry time and a hold's reason and start as that state's data, gone with it", () => {
    const lifecycle = new ConnectionLifecycle('restarting');
    // peek says where an event leads (a flood's back-off) without moving.
    expect(lifecycle.peek('back-off')).toMatchObject({ state: 'backing-off', forFlood: true });
    expect(lifecycle.state).toBe('restarting');
    lifecycle.fire('back-off', { retryAt: 5000 });
    expect(lifecycle.now).toMatchObject({ state: 'backing-off', forFlood: true, retryAt: 5000 });
    lifecycle.fire('start');
    lifecycle.fire('hold', { reason: 'blocked-path', failed: true, at: 7000 });
    expect(lifecycle.now).toEqual({ state: 'held-off', reason: 'blocked-path', failed: true, at: 7000 });
    lifecycle.fire('start');
    expect(lifecycle.now).toEqual({ state: 'connecting' });
  });

  it('names the state and event in the error', () => {
    expect(() => nextState('stopped', 'connected')).toThrow("'connected' is not allowed in state 'stopped'");
  });

  it('tells its listener after each transition', () => {
    const seen: string[] = [];
    const lifecycle = new ConnectionLifecycle('stopped', (state, event) => seen.push(`${event}->${state}`));
    lifecycle.fire('start');
    lifecycle.fire('connected');
    lifecycle.fire('drain');
    expect(seen).toEqual(['start->connecting', 'connected->ready', 'drain->draining']);
  });

  it('until() resolves at the first state that matches, and at once when it already does', async () => {
    const lifecycle = new ConnectionLifecycle('ready');
    await expect(lifecycle.until((state) => state === 'ready')).resolves.toBe('ready');
    lifecycle.fire('drain');
    const settled = lifecycle.until((state) => !holdsCalls(state));
    lifecycle.fire('restart');
    lifecycle.fire('start');
    lifecycle.fire('connected');
    await expect(settled).resolves.toBe('ready');
  });

  it('holds calls while a new process is on its way, and only then', () => {
    expect(LIFECYCLE_STATES.filter(holdsCalls)).toEqual(['connecting', 'draining', 'restarting']);
  });

  it('each state carries its own data: nested changes by depth, a flood\'s hold-off, a hold\'s reason', () => {
    const lifecycle = new ConnectionLifecycle('ready');
    lifecycle.fire('apply-grants');
    lifecycle.fire('apply-grants');
    expect(lifecycle.now).toEqual({ state: 'applying-grants', depth: 2 });
    // The first of two changes told: still applying; the last: ready.
    expect(lifecycle.fire('grants-applied')).toBe('applying-grants');
    expect(lifecycle.now).toEqual({ state: 'applying-grants', depth: 1 });
    expect(lifecycle.fire('grants-applied')).toBe('ready');
    // It ended by itself: a crash's retry. Closed for flooding (it ends while 'restarting'): a flood's hold-off.
    lifecycle.fire('back-off');
    expect(lifecycle.now).toEqual({ state: 'backing-off', forFlood: false });
    lifecycle.fire('start');
    lifecycle.fire('connected');
    lifecycle.fire('restart');
    lifecycle.fire('back-off');
    expect(lifecycle.now).toEqual({ state: 'backing-off', forFlood: true });
    lifecycle.fire('start');
    lifecycle.fire('hold', { reason: 'exits-at-start' });
    expect(lifecycle.now).toEqual({ state: 'held-off', reason: 'exits-at-start' });
    lifecycle.fire('start');
    lifecycle.fire('hold');
    expect(lifecycle.now).toEqual({ state: 'held-off', reason: undefined });
    expect(next({ state: 'held-off', reason: 'setup' }, 'start')).toEqual({ state: 'connecting' });
    // A restart waiting for running calls: the draining state holds it, so another reason joins it.
    const restart = Promise.resolve();
    expect(next({ state: 'ready' }, 'drain', { restart })).toEqual({ state: 'draining', restart });
    expect(next({ state: 'draining', restart }, 'restart')).toEqual({ state: 'restarting' });
  });

  it('a final stop (the proxy closed) is terminal: only another stop is legal', () => {
    const lifecycle = new ConnectionLifecycle('ready');
    lifecycle.fire('stop', { final: true });
    expect(lifecycle.now).toEqual({ state: 'stopped', final: true });
    for (const event of ['start', 'restart', 'connected', 'hold'] as const) expect(() => lifecycle.fire(event)).toThrow(IllegalTransitionError);
    expect(lifecycle.fire('stop')).toBe('stopped');
    expect(lifecycle.now).toEqual({ state: 'stopped', final: true });
    // An ordinary stop (a server switched off) starts again.
    expect(next({ state: 'stopped' }, 'start')).toEqual({ state: 'connecting' });
  });

  it("the proxy's states are the lifecycle's own names, and its moves are the table's", () => {
    for (const state of PROXY_STATES) expect(LIFECYCLE_STATES).toContain(state);
    // The proxy's path: start, ready, drain, restart, start again, held, stopped.
    const lifecycle = new ConnectionLifecycle();
    for (const event of ['start', 'connected', 'drain', 'restart', 'start', 'connected', 'hold', 'stop'] as const) lifecycle.fire(event);
    expect(lifecycle.state).toBe('stopped');
  });
});
