// Property-based checks of the path and URI boundary: whatever the input, the result is either a
// typed error or an absolute, normalized path that round-trips through a file:// URI.
import fc from 'fast-check';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRootInput, pathToRootUri, rootUriToPath } from '../../../electron/host/registry/file-uri.js';
import { CodedError } from '../../../shared/result.js';

// Segments from everything Unicode can throw at a name, minus the separator and NUL.
const segment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => !s.includes('/') && !s.includes('\0'));
const absolutePath = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => `/${parts.join('/')}`);
const nasty = fc.constantFrom('..', '.', '%2e%2e', '%2E%2E', '%2f', '%00', '#', '?', '%', ' ', '\\', 'C:', '\\\\server\\share', '~');

describe('path and URI properties', () => {
  it('any absolute path round-trips through its file:// URI', () => {
    fc.assert(
      fc.property(absolutePath, (p) => {
        const normalized = parseRootInput(p);
        expect(path.isAbsolute(normalized)).toBe(true);
        const uri = pathToRootUri(normalized);
        expect(uri).toBe(pathToFileURL(normalized).href);
        expect(rootUriToPath(uri)).toBe(normalized);
        expect(parseRootInput(uri)).toBe(normalized);
      }),
      { numRuns: 500 },
    );
  });

  it('any input gives a typed error or an absolute path without "." or ".." segments or NUL', () => {
    const input = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.array(fc.oneof(segment, nasty), { maxLength: 8 }).map((parts) => parts.join('/')),
      fc.array(fc.oneof(segment, nasty), { maxLength: 8 }).map((parts) => `/${parts.join('/')}`),
      fc.array(fc.oneof(segment, nasty), { maxLength: 8 }).map((parts) => `file:///${parts.join('/')}`),
      fc.tuple(fc.constantFrom('http', 'https', 'ftp', 'javascript', 'data', 'vscode', 'file'), fc.string({ maxLength: 30 })).map(
        ([scheme, rest]) => `${scheme}:${rest}`,
      ),
    );
    fc.assert(
      fc.property(input, (raw) => {
        let result: string;
        try {
          result = parseRootInput(raw);
        } catch (error) {
          expect(error).toBeInstanceOf(CodedError);
          return;
        }
        expect(path.isAbsolute(result)).toBe(true);
        expect(result.includes('\0')).toBe(false);
        expect(result.split('/').some((part) => part === '..' || part === '.')).toBe(false);
        expect(path.normalize(result)).toBe(result);
      }),
      { numRuns: 2000 },
    );
  });

  it('non-file schemes are always refused', () => {
    fc.assert(
      fc.property(fc.constantFrom('http', 'https', 'ftp', 'ssh', 'javascript', 'data', 'smb', 'vscode-remote'), fc.webPath(), (scheme, rest) => {
        expect(() => parseRootInput(`${scheme}://host${rest}`)).toThrow(expect.objectContaining({ code: 'bad-scheme' }));
      }),
    );
  });
});
