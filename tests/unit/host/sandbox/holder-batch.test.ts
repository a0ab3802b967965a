// The holder's fstab text (holder-batch.ts fstabField) read back the way libmount reads it: a line is
// split at ASCII blanks, then each field's \ooo escapes become one byte each (util-linux
// lib/mangle.c unmangle_to_buffer). Whatever a folder is called, the fields come back as its bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fstabField, holderBatch } from '../../../../electron/host/sandbox/holder-batch.js';

const isOctal = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x37;

/** libmount's unmangle: a backslash and three octal digits are one byte; anything else is itself. */
function unmangle(field: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < field.length; ) {
    if (field[i] === 0x5c && isOctal(field[i + 1]) && isOctal(field[i + 2]) && isOctal(field[i + 3])) {
      out.push((((field[i + 1] as number) & 7) << 6) | (((field[i + 2] as number) & 7) << 3) | ((field[i + 3] as number) & 7));
      i += 4;
    } else out.push(field[i++] as number);
  }
  return Buffer.from(out);
}

/** An fstab line's fields as libmount finds them: separated by runs of C's isspace. */
function fieldsOf(line: Buffer): Buffer[] {
  const fields: Buffer[] = [];
  let start = -1;
  for (let i = 0; i <= line.length; i++) {
    const blank = i === line.length || [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d].includes(line[i] as number);
    if (!blank && start < 0) start = i;
    if (blank && start >= 0) {
      fields.push(line.subarray(start, i));
      start = -1;
    }
  }
  return fields;
}

const folderName = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1 }),
  // The Unicode spaces a name may hold (U+3000 is common in Chinese and Japanese folder names).
  fc.array(fc.constantFrom('a', ' ', '\t', '\n', '\\', '\u00a0', '\u1680', '\u2000', '\u200a', '\u202f', '\u205f', '\u3000', '\ufeff', '#', '-', 'é', '\\040'), { minLength: 1 }).map((parts) => parts.join('')),
).filter((name) => !name.includes('/') && !name.includes('\0'));

describe('fstabField', () => {
  it('comes back as the very bytes of the name, whatever the name, as libmount parses it', () => {
    fc.assert(
      fc.property(folderName, folderName, (a, b) => {
        const source = `/home/u/${a}`;
        const target = `/stage/root/home/u/${b}`;
        const line = Buffer.from(`${fstabField(source)} ${fstabField(target)} none bind 0 0\n`, 'utf8');
        const fields = fieldsOf(line);
        expect(fields).toHaveLength(6);
        expect(unmangle(fields[0] as Buffer).equals(Buffer.from(source, 'utf8'))).toBe(true);
        expect(unmangle(fields[1] as Buffer).equals(Buffer.from(target, 'utf8'))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes a space above U+00FF byte by byte (U+1680 once read back as "Z00")', () => {
    expect(fstabField('/p/r\u1680')).toBe('/p/r\\341\\232\\200');
    expect(unmangle(Buffer.from(fstabField('/p/r\u1680'))).toString('utf8')).toBe('/p/r\u1680');
    expect(fstabField('/p/\u3000x')).toBe('/p/\\343\\200\\200x');
  });

  it('writes the batch of a repository a server named with a Unicode space as one line per mount', () => {
    const project = '/home/u/r\u1680';
    const batch = holderBatch({
      stage: '/data/stage',
      grantMounts: [{ path: project, writable: true, purpose: 'root' }],
      identities: new Map([[project, { dev: 1, ino: 2, directory: true }]]),
      flagsOf: () => [],
    });
    const [line] = batch.fstab.split('\n');
    const fields = fieldsOf(Buffer.from(line as string));
    expect(unmangle(fields[1] as Buffer).toString('utf8')).toBe(`/data/stage/root${project}`);
  });
});
