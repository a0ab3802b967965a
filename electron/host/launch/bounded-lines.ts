// Splits a stream into lines without ever holding more than one bounded line in memory. A server's
// stderr is read with this, not readline: readline buffers a line without limit, and 100 MB of
// stderr without a newline took the host from 90 to 211 MB RSS (past ~512 MB it aborted with a
// RangeError, taking every other server with it).
import { StringDecoder } from 'node:string_decoder';

export interface BoundedLinesOptions {
  /** A longer line is cut here, marked as cut, and the rest of it up to the next newline dropped. */
  maxLineChars?: number;
}

export const CUT_MARK = '… [cut]';

/** Feeds chunks of a stream; calls `onLine` for every line (without its newline). */
export function readBoundedLines(
  stream: NodeJS.ReadableStream,
  onLine: (line: string) => void,
  { maxLineChars = 8192 }: BoundedLinesOptions = {},
): void {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let dropping = false;
  const take = (text: string) => {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      if (!dropping) {
        const room = maxLineChars - partial.length;
        if (end - start > room) {
          onLine(`${stripCr(partial + text.slice(start, start + room))}${CUT_MARK}`);
          partial = '';
          dropping = true;
        } else {
          partial += text.slice(start, end);
        }
      }
      if (newline === -1) return;
      if (!dropping) onLine(stripCr(partial));
      partial = '';
      dropping = false;
      start = newline + 1;
    }
  };
  stream.on('data', (chunk: Buffer | string) => take(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
  stream.on('end', () => {
    const rest = decoder.end();
    if (rest) take(rest);
    if (!dropping && partial.length > 0) onLine(stripCr(partial));
  });
  stream.on('error', () => undefined);
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
