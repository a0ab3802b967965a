// One running file view, as the app talks to it: the control socket of one helper process
// (native/sandbox-helper). A table is in force once the helper says so (APPLIED with its number):
// a live change resolves only then, and a table the helper refuses (a folder replaced since it was
// checked) rejects with the helper's reason.
import type { Duplex } from 'node:stream';
import { encodeTable, FrameReader, type ViewAuditEvent } from './view-protocol.js';
import type { ViewEntry } from './view-plan.js';
import type { ViewRules } from './view-rules.js';

/** How long the helper may take to put a table in force before the change counts as failed. */
const APPLY_TIMEOUT_MS = 15_000;

export class ViewRefused extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'ViewRefused';
  }
}

export class ViewSession {
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  private readonly reader = new FrameReader();
  private closed: Error | undefined;
  /** The holder's pid (bwrap's outer process): pasta joins its network namespace, the self-check starts from it. */
  readonly holder: Promise<number>;

  constructor(
    private readonly control: Duplex,
    /** What the server did in its recorded grants, as the helper reports it (every quarter second). */
    onAudit: (events: ViewAuditEvent[], dropped: number) => void = () => undefined,
  ) {
    let holderKnown: (pid: number) => void = () => undefined;
    let holderLost: (error: Error) => void = () => undefined;
    this.holder = new Promise<number>((resolve, reject) => {
      holderKnown = resolve;
      holderLost = reject;
    });
    // Unhandled if nobody asks: the session may end before anyone does.
    this.holder.catch(() => undefined);
    control.on('data', (chunk: Buffer) => {
      for (const frame of this.reader.push(chunk)) {
        if (frame.type === 'holder') holderKnown(frame.pid);
        else if (frame.type === 'audit') onAudit(frame.events, frame.dropped);
        else this.settle(frame.seq, frame.errno === 0 ? undefined : new ViewRefused(frame.why || `errno ${frame.errno}`));
      }
    });
    const end = () => {
      this.closed ??= new Error('the sandbox helper is gone');
      holderLost(this.closed);
      for (const seq of [...this.waiting.keys()]) this.settle(seq, this.closed);
    };
    control.on('close', end);
    control.on('error', end);
  }

  /** Puts a table in force; resolves once the helper says it is. */
  apply(rules: ViewRules, entries: readonly ViewEntry[]): Promise<void> {
    if (this.closed) return Promise.reject(this.closed);
    const seq = ++this.seq;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(seq, new Error(`the sandbox helper did not put the change in force within ${APPLY_TIMEOUT_MS / 1000} s`)), APPLY_TIMEOUT_MS);
      this.waiting.set(seq, { resolve, reject, timer });
      this.control.write(encodeTable(seq, rules, entries));
    });
  }

  private settle(seq: number, error: Error | undefined): void {
    const waiter = this.waiting.get(seq);
    if (!waiter) return;
    this.waiting.delete(seq);
    clearTimeout(waiter.timer);
    if (error) waiter.reject(error);
    else waiter.resolve();
  }
}
