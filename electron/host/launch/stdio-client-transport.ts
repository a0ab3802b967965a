// The SDK's stdio client transport, with what the app needs of it on top:
//  - a subclass at all: in version negotiation's 'auto' mode the SDK probes its base class on a
//    throwaway sibling process (every server spawned twice); subclasses probe in place;
//  - messages sent in the same tick leave in one write;
//  - below-normal CPU priority for the child (see BuildOptions.lowPriority in transport-factory.ts);
//  - requests of its own (the era probe, era-negotiation.ts) whose answers, even late ones, go to
//    it and never to the SDK, which would report an answer it did not ask for as an error;
//  - a start() that may be called again (we start it for the era probe, then the SDK's connect
//    starts it), and one close that keeps the process (a refused 2025 handshake is followed by a
//    2026-07-28 one on the same process, not on a second spawn).
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';

/** What one of our own requests came to. */
export type OwnReply = { kind: 'answer'; message: JSONRPCMessage } | { kind: 'timeout' } | { kind: 'closed' };

const OWN_ID_PREFIX = 'mcp-roots-host:';

/** Descriptors a child gets as its fds 3, 4, …, opened for one spawn (a confined server's mounts). */
export interface ChildDescriptors {
  fds: number[];
  close(): void;
  /** Pipes the child gets after `fds`, as its next descriptors (a private network's handshake with bwrap). */
  pipes?: number | undefined;
  /** Called once the child runs, with those pipes' streams: the start waits for it, its failure stops the child, and what it returns is called when the child exits. */
  whenSpawned?: ((pipes: (Readable | Writable)[], pid: number | undefined) => Promise<void | (() => void)>) | undefined;
}

/** The base class's private parts that a spawn of our own must fill in (checked by the sandbox tests). */
interface SdkStdioInternals {
  _process?: ChildProcess | undefined;
  _serverParams: StdioServerParameters;
  _readBuffer: { append(chunk: Buffer): void };
  _stderrStream?: NodeJS.WritableStream | null;
  processReadBuffer(): void;
}

export class InPlaceStdioClientTransport extends StdioClientTransport {
  /** Below-normal CPU priority for the child, set as soon as it runs (see BuildOptions.lowPriority). */
  lowPriority = false;
  /** Opened just before each spawn and passed on as fds 3…: bwrap binds from them (mount-descriptors.ts). */
  childDescriptors?: (() => ChildDescriptors) | undefined;
  /** An answer to one of our requests that came after we stopped waiting (a slow start). */
  onLateAnswer?: (message: JSONRPCMessage, afterMs: number) => void;
  private running = false;
  private child: ChildProcess | undefined;
  private holdNextClose = false;
  private nextOwnId = 1;
  /** Our requests still awaited, and when each of them (answered or not) was sent. */
  private readonly awaiting = new Map<string, (reply: OwnReply) => void>();
  private readonly sentAt = new Map<string, number>();
  /** The handlers the SDK installed; the base class calls our wrappers of them. */
  private handlers: { message?: ((message: JSONRPCMessage) => void) | undefined; close?: (() => void) | undefined } = {};

  constructor(params: StdioServerParameters) {
    super(params);
    // The base class declares these as fields, so accessors on the prototype would be shadowed:
    // they are defined on the instance. Each read returns a wrapper of the handler set at that
    // moment (the SDK chains the previous handler into the next one, so a wrapper that looked the
    // handler up when called would call itself). Answers to our own ids never reach the SDK, and a
    // child's exit settles our own waits before the SDK hears of it.
    Object.defineProperties(this, {
      onmessage: {
        configurable: true,
        enumerable: true,
        get: () => {
          const handler = this.handlers.message;
          return (message: JSONRPCMessage) => this.route(message, handler);
        },
        set: (next: ((message: JSONRPCMessage) => void) | undefined) => void (this.handlers.message = next),
      },
      onclose: {
        configurable: true,
        enumerable: true,
        get: () => {
          const handler = this.handlers.close;
          return () => {
            this.exited();
            handler?.();
          };
        },
        set: (next: (() => void) | undefined) => void (this.handlers.close = next),
      },
    });
  }

  /**
   * Messages sent in the same tick leave in one write: the answers to a batch of requests wake the
   * server once, not once each (a pipe write that wakes a process cost ~45 µs here under a flood).
   */
  override send(message: JSONRPCMessage): Promise<void> {
    const stdin = (this as unknown as { _process?: { stdin?: Writable | null } })._process?.stdin;
    if (stdin && stdin.writableCorked === 0) {
      stdin.cork();
      process.nextTick(() => stdin.uncork());
    }
    return super.send(message);
  }

  /**
   * Writes now what send() held for the end of this tick. The cork is lifted in a nextTick, which
   * runs only once every microtask queued before it has run: a list_changed sent in the middle of
   * an edit waited for the rest of the edit's work (BENCHMARKS.md section 2). The nextTick's
   * uncork then finds nothing corked and does nothing (or lifts a later send's cork early).
   */
  flush(): void {
    const stdin = (this as unknown as { _process?: { stdin?: Writable | null } })._process?.stdin;
    if (stdin && stdin.writableCorked > 0) stdin.uncork();
  }

  override async start(): Promise<void> {
    if (this.running) return;
    if (this.childDescriptors) await this.spawnWithDescriptors(this.childDescriptors);
    else await super.start();
    this.running = true;
    // The SDK keeps its child private and reports its end without the exit code; hold on to the
    // child so a failure can say "exited with code 1" (absent if the SDK renames the field).
    this.child = (this as unknown as { _process?: ChildProcess })._process;
    const pid = this.pid;
    if (!this.lowPriority || !pid) return;
    try {
      os.setPriority(pid, os.constants.priority.PRIORITY_BELOW_NORMAL);
    } catch {
      // Not permitted here (some sandboxes): the server runs at normal priority, which only costs latency.
    }
  }

  /** Sends a request of our own and waits for its answer, the child's exit, or the timeout. */
  ownRequest(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<OwnReply> {
    const id = `${OWN_ID_PREFIX}${this.nextOwnId++}`;
    this.sentAt.set(id, Date.now());
    return new Promise<OwnReply>((resolve) => {
      const finish = (reply: OwnReply) => {
        clearTimeout(timer);
        if (this.awaiting.get(id) !== finish) return;
        this.awaiting.delete(id);
        resolve(reply);
      };
      const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
      this.awaiting.set(id, finish);
      if (!this.running) finish({ kind: 'closed' });
      else this.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage).catch(() => finish({ kind: 'closed' }));
    });
  }

  /**
   * The next close() (the SDK closes after a refused handshake) tells the SDK its session is over
   * but keeps the process running, for another handshake on it. Call with false to disarm.
   */
  keepProcessOnNextClose(keep = true): void {
    this.holdNextClose = keep;
  }

  override async close(): Promise<void> {
    if (this.holdNextClose && this.running) {
      this.holdNextClose = false;
      // The SDK's session ends here; the next one installs its own handlers instead of chaining these.
      const { close } = this.handlers;
      this.handlers = {};
      close?.();
      return;
    }
    this.holdNextClose = false;
    await super.close();
  }

  /** How the child ended, once it has. */
  get exit(): { code: number | null; signal: string | null } | undefined {
    const child = this.child;
    if (!child || (child.exitCode === null && child.signalCode === null)) return undefined;
    return { code: child.exitCode, signal: child.signalCode };
  }

  /** The child's pid, kept after a close (the SDK's `pid` is null then): to name it and read its children while it runs. */
  get spawnedPid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Signals the child while it has not ended, whatever the SDK's session did. By the child process,
   * never by a bare pid: once the child is reaped its pid may be another process's.
   */
  signal(signal: NodeJS.Signals): void {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
  }

  /** True while the child runs (a held close leaves it running). */
  get alive(): boolean {
    return this.running;
  }

  /**
   * The SDK's start, with extra descriptors in the child's stdio (the SDK spawns with three). Kept
   * as close to the SDK's as possible: the same environment, the same handlers, the same buffers.
   */
  private spawnWithDescriptors(open: () => ChildDescriptors): Promise<void> {
    const sdk = this as unknown as SdkStdioInternals;
    const params = sdk._serverParams;
    const descriptors = open();
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        const pipes = Array.from({ length: descriptors.pipes ?? 0 }, () => 'pipe' as const);
        const stdio: StdioOptions = ['pipe', 'pipe', params.stderr === 'pipe' ? 'pipe' : (params.stderr ?? 'inherit'), ...descriptors.fds, ...pipes];
        child = spawn(params.command, params.args ?? [], { env: params.env, stdio, shell: false, cwd: params.cwd });
      } catch (error) {
        descriptors.close();
        reject(error as Error);
        return;
      }
      sdk._process = child;
      child.on('error', (error) => {
        descriptors.close();
        reject(error);
        this.onerror?.(error);
      });
      // Counted now: close() empties the list.
      const first = 3 + descriptors.fds.length;
      // The extra pipes (bwrap's --block-fd) end with the child: a reset then is expected, and an
      // 'error' without a listener would be thrown at the whole process (seen: ECONNRESET when a
      // network-on server was killed during one-writer-stress).
      for (const stream of child.stdio.slice(first, first + (descriptors.pipes ?? 0))) stream?.on('error', () => undefined);
      child.on('spawn', () => {
        // The child holds its own copies now; ours would keep the folders open for nothing.
        descriptors.close();
        if (!descriptors.whenSpawned) return resolve();
        const streams = child.stdio.slice(first, first + (descriptors.pipes ?? 0)) as (Readable | Writable)[];
        descriptors.whenSpawned(streams, child.pid).then((cleanup) => {
          // What the start set up outside the child (a private network's pasta) ends with it.
          if (cleanup && (child.exitCode !== null || child.signalCode !== null)) cleanup();
          else if (cleanup) child.once('exit', cleanup);
          resolve();
        }, (error: Error) => {
          child.kill('SIGKILL');
          // Ours too, or the child's 'close' (which waits for every pipe) never comes.
          for (const stream of streams) stream.destroy();
          reject(error);
        });
      });
      child.on('close', () => {
        sdk._process = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          sdk._readBuffer.append(chunk);
          sdk.processReadBuffer();
        } catch (error) {
          this.onerror?.(error as Error);
          this.close().catch(() => undefined);
        }
      });
      child.stdout?.on('error', (error) => this.onerror?.(error));
      if (sdk._stderrStream && child.stderr) child.stderr.pipe(sdk._stderrStream);
    });
  }

  private route(message: JSONRPCMessage, handler: ((message: JSONRPCMessage) => void) | undefined): void {
    const id = (message as { id?: unknown }).id;
    const ours = !('method' in message) && typeof id === 'string' && id.startsWith(OWN_ID_PREFIX);
    if (!ours) {
      handler?.(message);
      return;
    }
    const waiter = this.awaiting.get(id);
    if (waiter) {
      waiter({ kind: 'answer', message });
      return;
    }
    const sentAt = this.sentAt.get(id);
    this.sentAt.delete(id);
    if (sentAt !== undefined) this.onLateAnswer?.(message, Date.now() - sentAt);
  }

  private exited(): void {
    // The SDK chains this wrapper into its own close handler, which a held close calls too.
    if (this.pid !== null) return;
    this.running = false;
    for (const waiter of [...this.awaiting.values()]) waiter({ kind: 'closed' });
  }
}
