// Server stderr is split into bounded lines: a line without a newline can never grow memory.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CUT_MARK, readBoundedLines } from '../../../../electron/host/launch/bounded-lines.js';

async function collect(chunks: (string | Buffer)[], maxLineChars = 10): Promise<string[]> {
  const stream = new PassThrough();
  const lines: string[] = [];
  readBoundedLines(stream, (line) => lines.push(line), { maxLineChars });
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await ended;
  return lines;
}

describe('readBoundedLines', () => {
  it('splits lines across chunks and keeps CRLF out', async () => {
    expect(await collect(['one\ntw', 'o\r\nthree'])).toEqual(['one', 'two', 'three']);
  });

  it('cuts a long line once, marks it, and drops the rest up to its newline', async () => {
    expect(await collect(['0123456789abcdef', 'ghij\nnext\n'])).toEqual([`0123456789${CUT_MARK}`, 'next']);
  });

  it('holds at most one bounded line however much arrives without a newline', async () => {
    const block = 'x'.repeat(64 * 1024);
    const lines = await collect([...Array.from({ length: 200 }, () => block), '\nafter\n'], 1000); // 12.5 MB, no newline
    expect(lines).toEqual([`${'x'.repeat(1000)}${CUT_MARK}`, 'after']);
  });

  it('does not split a multi-byte character across chunks', async () => {
    const bytes = Buffer.from('项目\n');
    expect(await collect([bytes.subarray(0, 2), bytes.subarray(2)])).toEqual(['项目']);
  });
});
