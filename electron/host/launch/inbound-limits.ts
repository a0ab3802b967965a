// What one stdio server may cost the app to read, whatever it writes. It takes the place of the
// SDK's read buffer (same three methods) in InPlaceStdioClientTransport, so one hostile server
// cannot slow the others:
// - Lines are framed without copying or re-scanning what was read before. The SDK's ReadBuffer
//   concatenates every chunk onto the whole buffer and searches it again from the start, so a
//   line that never ends costs O(n²): 10 MB in 64 KB chunks is ~0.8 GB copied and ~0.8 GB
//   scanned (measured: tests/unit/host/launch/inbound-limits.test.ts, bench section 10).
// - A line longer than the SDK's 10 MB ends the session (as the SDK does), and what the server
//   writes after that is not read at all while the session closes (the SDK kept reading and
//   re-scanning the endless line for the 2-4 s its close waits for the process to exit).
// - Messages are read at most `messagesPerSecond` a second (a token bucket with a small burst)
//   and at most `perTurn` at a time before the event loop serves everything else. Reading stops
//   (the stream is paused) while the server is over its rate: the rest waits in its pipe, the
//   server's own writes block, nothing is dropped and nothing piles up in the app.
// - With `penalties` (the app's own connections): a server still over its rate after `afterMs` in a
//   row is flooding, not bursting. It is not read at all for a pause that doubles each time (its
//   requests wait in its pipe and are answered late, never dropped), and when it is still flooding
//   after the last pause it is reported as 'flood', for its connection to close the session. At
//   the rate alone a flood costs the app ~0.3-0.4 ms of CPU per message read (the SDK parses and
//   answers each one), 6-9 % of a core at 200/s for as long as it goes on; a pause costs nothing.
import { EventEmitter } from 'node:events';
import { deserializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE, type JSONRPCMessage } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { InboundLimitation } from '../../../shared/domain.js';
import type { ActivityEvent } from '../../../shared/activity-event.js';
import { englishOf } from '../../../shared/i18n/activity-message.js';

export interface InboundLimits {
  /** Messages read per second from one server, sustained. */
  messagesPerSecond: number;
  /** Messages that may be read at once after a quiet spell. */
  burst: number;
  /** Messages handled in one turn of the event loop before everything else gets its turn. */
  perTurn: number;
  /** A longer line (bytes, without its newline) ends the session. */
  maxLineBytes: number;
  /** What happens to a server that stays over its rate; absent: it is only read at its rate. */
  penalties?: FloodPenalties | undefined;
}

export interface FloodPenalties {
  /** Held back by the rate this long in a row (never a spell this long without): it is flooding. */
  afterMs: number;
  /** Not read at all for these pauses, one per time it is found flooding; after the last: 'flood'. */
  pausesMs: readonly number[];
}

/**
 * Held back for 1 s at 200/s is over 400 messages in a second, twice the burst: no working server
 * asks the app for its roots like that (a burst of 1,000 is still worked off, late, after three
 * pauses). A server that keeps flooding is read 1 s, paused 1 s, read 1 s, paused 2 s... and after
 * the 8 s pause its session is closed: read 5 s of its first 20 s, instead of all of them. Measured
 * (BENCHMARKS.md, history, 2026-11-23; interleaved): held to its rate alone, a flood cost the
 * host 9.0 % of a core against 6.2 % with none; with these pauses 6.1 %, 79 requests read a second
 * instead of 199.
 */
export const DEFAULT_FLOOD_PENALTIES: FloodPenalties = { afterMs: 1000, pausesMs: [1000, 2000, 4000, 8000] };

/**
 * 200 messages a second is far above what a working server sends (a few roots/list, progress and
 * log notifications), and a burst of 200 passes at once. Measured beside a flood on 2 loaded cores:
 * at 200/s another server's update was as fast as with no flood; at 500/s its p90 went from ~6 to
 * ~25 ms, at 2,000/s to ~50 ms (each message read also wakes the flooder and costs the SDK ~0.2 ms).
 */
export const DEFAULT_INBOUND_LIMITS: InboundLimits = {
  messagesPerSecond: 200,
  burst: 200,
  perTurn: 5,
  maxLineBytes: STDIO_DEFAULT_MAX_BUFFER_SIZE,
};


/** The SDK transport's private parts this replaces or pauses (checked at install, not assumed). */
interface SdkStdioInternals {
  _readBuffer: unknown;
  _process?: { stdout?: NodeJS.ReadableStream | null } | undefined;
  processReadBuffer(): void;
}

/** Held back again after this long under its rate: a new episode, reported again. */
const QUIET_MS = 5000;

export class InboundLimiter extends EventEmitter<{ limited: [InboundLimitation] }> {
  private readonly lines: Buffer[] = [];
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** After a line too long: the session is closing, nothing more is read. */
  private refusing = false;
  private tokens: number;
  private refilledAt = performance.now();
  private turnCount = 0;
  private turnResetScheduled = false;
  private continuation: NodeJS.Timeout | NodeJS.Immediate | undefined;
  /** When reading was last held back for the rate (performance.now()). */
  private limitedAt = -Infinity;
  /** Since when it has been held back, with no spell of `afterMs` in between when it was not. */
  private overSince: number | undefined;
  private pausesServed = 0;
  /** While a penalty pause runs: nothing is read, not even to see whether a token came back. */
  private penalised = false;
  private transport: SdkStdioInternals | undefined;

  constructor(private readonly limits: InboundLimits = DEFAULT_INBOUND_LIMITS) {
    super();
    this.tokens = limits.burst;
  }

  /** Takes the place of the transport's read buffer. Call before start(); `started` after it. */
  install(transport: StdioClientTransport): void {
    const internals = transport as unknown as SdkStdioInternals;
    if (!('_readBuffer' in internals) || typeof internals.processReadBuffer !== 'function') {
      throw new Error('The MCP SDK stdio transport changed: its read buffer cannot be limited (inbound-limits.ts).');
    }
    internals._readBuffer = this;
    this.transport = internals;
  }

  // ---- the SDK ReadBuffer's interface -------------------------------------------------------

  append(chunk: Buffer): void {
    if (this.refusing) return;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.partialBytes + (end - start) > this.limits.maxLineBytes) this.refuseLongLine();
      if (newline === -1) {
        if (end > start) this.keepPartial(chunk.subarray(start));
        break;
      }
      this.lines.push(this.partial.length === 0 ? chunk.subarray(start, end) : Buffer.concat([...this.partial, chunk.subarray(start, end)]));
      this.partial = [];
      this.partialBytes = 0;
      start = newline + 1;
    }
    // Complete lines wait for their turn: stop reading until they are handled.
    if (this.lines.length > this.limits.perTurn) this.pause();
  }

  readMessage(): JSONRPCMessage | null {
    for (;;) {
      if (this.lines.length === 0) {
        this.resume();
        return null;
      }
      if (this.penalised || this.refusing) return null;
      if (this.turnCount >= this.limits.perTurn) return this.later(0);
      if (!this.takeToken()) return this.penalised || this.refusing ? null : this.later(this.msUntilToken());
      const line = this.lines.shift() as Buffer;
      this.countTurn();
      const text = line.toString('utf8');
      try {
        return deserializeMessage(text.endsWith('\r') ? text.slice(0, -1) : text);
      } catch (error) {
        // Not JSON: dropped, as the SDK does (garbage between messages must not end the session).
        if (error instanceof SyntaxError) continue;
        throw error;
      }
    }
  }

  clear(): void {
    this.lines.length = 0;
    this.partial = [];
    this.partialBytes = 0;
    if (this.continuation) {
      clearTimeout(this.continuation as NodeJS.Timeout);
      clearImmediate(this.continuation as NodeJS.Immediate);
    }
    this.continuation = undefined;
  }

  // ---- limits --------------------------------------------------------------------------------

  private keepPartial(piece: Buffer): void {
    // A copy: the chunk's memory is Node's pooled slab, and a line may wait for many chunks.
    this.partial.push(Buffer.from(piece));
    this.partialBytes += piece.length;
  }

  private refuseLongLine(): never {
    this.refusing = true;
    this.clear();
    this.pause();
    const mb = Math.round(this.limits.maxLineBytes / (1024 * 1024));
    const event: ActivityEvent = { code: 'long-line', params: { mb } };
    this.emit('limited', { kind: 'long-line', limit: mb, event, at: Date.now() });
    // The SDK reports this through onerror and closes the transport.
    throw new Error(englishOf(event));
  }

  private takeToken(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.limits.burst, this.tokens + ((now - this.refilledAt) * this.limits.messagesPerSecond) / 1000);
    this.refilledAt = now;
    // Not short of a token for as long as it takes to be found flooding: that episode is over. (A
    // stall of the app's own event loop that long looks the same: lenient, never harsher.)
    const penalties = this.limits.penalties;
    if (this.overSince !== undefined && now - this.limitedAt >= (penalties?.afterMs ?? 0)) this.overSince = undefined;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    this.overSince ??= now;
    if (penalties && now - this.overSince >= penalties.afterMs) {
      this.penalise(penalties);
      return false;
    }
    // One report per episode: a server that keeps flooding is not reported on every refill.
    const newEpisode = now - this.limitedAt > QUIET_MS;
    this.limitedAt = now;
    if (newEpisode) {
      const event: ActivityEvent = { code: 'read-paced', params: { rate: this.limits.messagesPerSecond } };
      this.emit('limited', { kind: 'message-rate', limit: this.limits.messagesPerSecond, event, at: Date.now() });
    }
    return false;
  }

  /** Still over its rate after `afterMs`: a pause it cannot shorten, or, after the last one, 'flood'. */
  private penalise(penalties: FloodPenalties): void {
    const seconds = Math.round(penalties.afterMs / 100) / 10;
    const rate = this.limits.messagesPerSecond;
    const pauseMs = penalties.pausesMs[this.pausesServed];
    if (pauseMs === undefined) {
      // Nothing more is read from it; its connection closes the session (server-connection.ts).
      this.refusing = true;
      this.clear();
      this.pause();
      const event: ActivityEvent = { code: 'flood-closed', params: { rate, count: penalties.pausesMs.length } };
      this.emit('limited', { kind: 'flood', limit: rate, event, at: Date.now() });
      return;
    }
    this.pausesServed++;
    this.penalised = true;
    this.overSince = undefined;
    this.pause();
    if (this.continuation) {
      clearTimeout(this.continuation as NodeJS.Timeout);
      clearImmediate(this.continuation as NodeJS.Immediate);
    }
    this.continuation = setTimeout(() => {
      this.continuation = undefined;
      this.penalised = false;
      // Measured afresh from here: the pause is not counted as time over the rate.
      this.refilledAt = performance.now();
      this.limitedAt = this.refilledAt;
      this.transport?.processReadBuffer();
    }, pauseMs);
    const event: ActivityEvent = { code: 'read-paused', params: { rate, seconds, pauseSeconds: pauseMs / 1000, pause: this.pausesServed, count: penalties.pausesMs.length } };
    this.emit('limited', { kind: 'message-rate', limit: rate, event, at: Date.now() });
  }

  /** Waits for a turn's worth of tokens, not one: a wake-up per message would cost more than the message. */
  private msUntilToken(): number {
    const wanted = Math.min(this.limits.perTurn, this.limits.burst);
    return Math.max(1, Math.ceil(((wanted - this.tokens) * 1000) / this.limits.messagesPerSecond));
  }

  private countTurn(): void {
    this.turnCount++;
    if (this.turnResetScheduled) return;
    this.turnResetScheduled = true;
    setImmediate(() => {
      this.turnResetScheduled = false;
      this.turnCount = 0;
    });
  }

  /** Stops reading for now and comes back to the waiting lines after `ms` (0: next turn). */
  private later(ms: number): null {
    this.pause();
    if (this.continuation) return null;
    const go = () => {
      this.continuation = undefined;
      this.transport?.processReadBuffer();
    };
    this.continuation = ms === 0 ? setImmediate(go) : setTimeout(go, ms);
    return null;
  }

  private pause(): void {
    this.transport?._process?.stdout?.pause();
  }

  private resume(): void {
    if (!this.refusing && !this.penalised) this.transport?._process?.stdout?.resume();
  }
}
