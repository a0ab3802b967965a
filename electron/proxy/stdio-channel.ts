// The host's side of the proxy: newline-delimited JSON-RPC on stdin/stdout, read raw so that no
// schema drops a field the host sent. stdout carries the protocol only; logs go to stderr.
import type { Readable, Writable } from 'node:stream';
import { errorResponse, INVALID_REQUEST, isMessage, PARSE_ERROR, type Message } from './json-rpc.js';

export interface HostChannel {
  onmessage?: (message: Message) => void;
  onclose?: () => void;
  send(message: Message): void;
}

/** A line longer than this is not a message we can forward (the SDK's own limit is 10 MB too). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

export class StdioChannel implements HostChannel {
  onmessage?: (message: Message) => void;
  onclose?: () => void;
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private closed = false;
  private outputBroken = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    this.input.on('data', (chunk: Buffer | string) => this.receive(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    this.input.on('end', () => this.close());
    this.input.on('close', () => this.close());
    this.input.on('error', () => this.close());
    // A host that went away leaves a broken pipe: that is a close, not a crash.
    this.output.on('error', () => {
      this.outputBroken = true;
      this.close();
    });
  }

  /** Lets go of stdin, so nothing keeps the process alive once the session is over. */
  stop(): void {
    this.closed = true;
    this.input.removeAllListeners('data');
    this.input.pause();
    this.input.destroy();
  }

  send(message: Message): void {
    if (this.outputBroken) return;
    this.output.write(`${JSON.stringify(message)}\n`);
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.buffered.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.buffered).toString('utf8');
      this.buffered = [];
      this.bufferedBytes = 0;
      this.line(line.endsWith('\r') ? line.slice(0, -1) : line);
      start = newline + 1;
    }
    if (start < chunk.length) {
      this.buffered.push(chunk.subarray(start));
      this.bufferedBytes += chunk.length - start;
      if (this.bufferedBytes > MAX_LINE_BYTES) {
        this.buffered = [];
        this.bufferedBytes = 0;
        this.log(`dropped a message from the host longer than ${MAX_LINE_BYTES} bytes`);
        this.send(errorResponse(null, PARSE_ERROR, 'Message too long.'));
      }
    }
  }

  private line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.log(`the host sent a line that is not JSON: ${text.slice(0, 200)}`);
      this.send(errorResponse(null, PARSE_ERROR, 'Parse error: not JSON.'));
      return;
    }
    if (!isMessage(value)) {
      this.send(errorResponse(null, INVALID_REQUEST, 'Invalid request: not a JSON-RPC 2.0 message.'));
      return;
    }
    this.onmessage?.(value);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
