// The CLI's main() in this process, with its output in strings: fast, for unit tests of commands.
// (tests/support/cli.ts runs the real installed command in a child process.)
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../electron/cli/main.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  cwd?: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Lines typed at a prompt; with `tty`, stdin claims to be a terminal. */
  input?: string;
  tty?: boolean;
}

export async function runMain(args: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const stdin = Object.assign(new PassThrough(), { isTTY: options.tty === true });
  stdin.end(options.input ?? '');
  const code = await main(args, {
    out: sink((text) => (stdout += text)),
    err: sink((text) => (stderr += text)),
    stdin,
    cwd: options.cwd ?? process.cwd(),
    home: options.home ?? process.env.HOME ?? '/',
    // No MCP_ROOTS_CONFIG_DIR from the environment: a test names its registry with --config-dir.
    env: options.env ?? { PATH: process.env.PATH },
  });
  return { code, stdout, stderr };
}
