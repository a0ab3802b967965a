// A bare JSON-RPC host over stdio: it sends exactly the bytes a test gives it and records every
// message it gets back, so a proxied session can be compared with a direct one message by message.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import readline from 'node:readline';

export interface RawMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface RawPeerOptions {
  cwd?: string;
  /** Answers the server's requests of these methods (roots/list, sampling) like a host would. */
  answers?: Record<string, Record<string, unknown>>;
}

export class RawPeer {
  /** Everything the server sent, in order, except the requests this peer answered itself. */
  readonly received: RawMessage[] = [];
  readonly answered: RawMessage[] = [];
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiters = new Set<() => void>();
  private readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], private readonly options: RawPeerOptions = {}) {
    this.child = spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => this.receive(JSON.parse(line) as RawMessage));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  send(message: RawMessage): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  sendLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  async request(id: string | number, method: string, params?: Record<string, unknown>, timeoutMs = 30_000): Promise<RawMessage> {
    this.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return this.waitFor((message) => message.id === id && message.method === undefined, timeoutMs, `a response to ${method} #${id}`);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.send({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
  }

  async waitFor(match: (message: RawMessage) => boolean, timeoutMs = 30_000, what = 'a message'): Promise<RawMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; stderr: ${this.stderr.slice(-2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The host dies: its ends of both pipes close, with no goodbye and no signal to the process. */
  hangUp(): void {
    this.child.stdin.destroy();
    this.child.stdout.destroy();
  }

  /** Whether the process has ended (and been reaped). */
  get ended(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** For cleanup after a failed test. */
  kill(): void {
    if (!this.ended) this.child.kill('SIGKILL');
  }

  /** Closes stdin, the MCP way to end a stdio session, and resolves with the exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }

  private receive(message: RawMessage): void {
    const answer = message.method !== undefined && message.id !== undefined ? this.options.answers?.[message.method] : undefined;
    if (answer) {
      this.answered.push(message);
      this.send({ jsonrpc: '2.0', id: message.id as string | number, result: answer });
    } else {
      this.received.push(message);
    }
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }
}
