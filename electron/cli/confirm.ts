// A yes/no question on the terminal, for changes that widen what a server sees. Only asked when
// stdin is a terminal; elsewhere the caller needs --yes. No answer (end of input) means no.
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export function confirm(question: string, input: Readable, output: Writable): Promise<boolean> {
  return new Promise((resolve) => {
    const lines = readline.createInterface({ input, terminal: false });
    output.write(`${question} [y/N] `);
    lines.once('line', (line) => {
      resolve(/^y(es)?$/i.test(line.trim()));
      lines.close();
    });
    lines.once('close', () => resolve(false));
  });
}
