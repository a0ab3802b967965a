import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalizeRoot, parseRootInput, pathToRootUri, rootUriToPath } from '../../../../electron/host/registry/file-uri.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(removeTempDirs);

describe('parseRootInput', () => {
  it('accepts absolute paths and normalizes them', () => {
    expect(parseRootInput('/a/b/../c/./d/')).toBe('/a/c/d');
  });

  it('never trims: blanks at either end are part of the name, never dropped without a word', () => {
    expect(parseRootInput('/tmp/proj ')).toBe('/tmp/proj ');
    expect(parseRootInput('/tmp/ proj/')).toBe('/tmp/ proj');
    expect(() => parseRootInput('  /a/b')).toThrow(expect.objectContaining({ code: 'not-absolute' }));
    expect(() => parseRootInput('   ')).toThrow(expect.objectContaining({ code: 'invalid-input' }));
    // The URL parser would strip them silently: refused, with how to write a blank in a URI.
    expect(() => parseRootInput('file:///tmp/proj ')).toThrow(expect.objectContaining({ code: 'bad-uri', message: expect.stringContaining('%20') }));
    expect(parseRootInput('file:///tmp/proj%20')).toBe('/tmp/proj ');
  });

  it('refuses a Windows name ending in a blank or a dot, which Windows would open as another folder', () => {
    for (const input of ['C:\\work\\proj ', 'C:\\work\\proj.', 'C:\\proj \\src', '\\\\server\\share\\x.']) {
      expect(() => parseRootInput(input, 'windows'), input).toThrow(expect.objectContaining({ code: 'invalid-input' }));
    }
    expect(parseRootInput('C:\\work\\.config', 'windows')).toBe('C:\\work\\.config');
  });

  it('decodes file:// URIs with fileURLToPath, not string slicing', () => {
    expect(parseRootInput('file:///tmp/My%20Project%20100%25%20%231')).toBe('/tmp/My Project 100% #1');
    expect(parseRootInput('file:///tmp/%E9%A1%B9%E7%9B%AE')).toBe('/tmp/项目');
  });

  it.each([
    ['relative/path', 'not-absolute'],
    ['./here', 'not-absolute'],
    ['', 'invalid-input'],
    ['/tmp/a\0b', 'nul-byte'],
    ['file:///tmp/a%00b', 'nul-byte'],
    ['https://example.com/x', 'bad-scheme'],
    ['ftp://host/x', 'bad-scheme'],
    ['file://remote-host/share', 'bad-uri'],
    ['file:///tmp/a%2fb', 'bad-uri'],
    [`/${'x'.repeat(5000)}`, 'too-long'],
  ])('rejects %j with %s', (input, code) => {
    expect(() => parseRootInput(input)).toThrow(expect.objectContaining({ code }));
  });

  it('resolves traversal: an encoded ".." is a literal name, a real one is normalized away', () => {
    expect(parseRootInput('file:///tmp/a/%2e%2e/b')).toBe('/tmp/b');
    expect(parseRootInput('/tmp/a/../../etc')).toBe('/etc');
  });
});

describe('canonicalizeRoot', () => {
  it('`proj ` never adds its sibling `proj` (here a symlink to /etc): the name is taken as typed', async () => {
    const base = tempDir();
    fs.symlinkSync('/etc', path.join(base, 'proj'));
    const typed = path.join(base, 'proj ');
    const missing = canonicalizeRoot(typed);
    await expect(missing).rejects.toMatchObject({ code: 'missing' });
    await expect(missing).rejects.toThrow(`"${path.join(base, 'proj')}" exists but was not added`);
    fs.mkdirSync(typed);
    await expect(canonicalizeRoot(typed)).resolves.toEqual({ path: typed, canonicalPath: typed });
  });

  it('keeps the picked path for display and resolves the symlink target', async () => {
    const base = tempDir();
    const target = path.join(base, 'target');
    fs.mkdirSync(target);
    fs.symlinkSync(target, path.join(base, 'link'));
    await expect(canonicalizeRoot(path.join(base, 'link'))).resolves.toEqual({
      path: path.join(base, 'link'),
      canonicalPath: target,
    });
  });

  it('rejects a missing folder, a file and a symlink loop with clear codes', async () => {
    const base = tempDir();
    fs.writeFileSync(path.join(base, 'file.txt'), 'x');
    fs.symlinkSync(path.join(base, 'loop-b'), path.join(base, 'loop-a'));
    fs.symlinkSync(path.join(base, 'loop-a'), path.join(base, 'loop-b'));
    await expect(canonicalizeRoot(path.join(base, 'nope'))).rejects.toMatchObject({ code: 'missing' });
    await expect(canonicalizeRoot(path.join(base, 'file.txt'))).rejects.toMatchObject({ code: 'not-directory' });
    await expect(canonicalizeRoot(path.join(base, 'loop-a'))).rejects.toMatchObject({ code: 'symlink-loop' });
  });
});

describe('root URIs', () => {
  it('round-trip awkward names', () => {
    for (const name of ['with space', '100%', '#hash', '?query', 'Größe', '项目', 'emoji 🗂', 'a%20b']) {
      const p = `/tmp/${name}`;
      const uri = pathToRootUri(p);
      expect(uri).toBe(pathToFileURL(p).href);
      expect(uri.startsWith('file:///')).toBe(true);
      expect(rootUriToPath(uri)).toBe(p);
    }
  });
});

describe('Windows drive letters and UNC shares', () => {
  it.each([
    ['C:\\Users\\Me\\My Project 100% #1', 'file:///C:/Users/Me/My%20Project%20100%25%20%231'],
    ['D:\\项目', 'file:///D:/%E9%A1%B9%E7%9B%AE'],
    ['\\\\server\\share\\team folder', 'file://server/share/team%20folder'],
  ])('%s round-trips as %s', (windowsPath, uri) => {
    expect(parseRootInput(windowsPath, 'windows')).toBe(windowsPath);
    expect(pathToRootUri(windowsPath, 'windows')).toBe(uri);
    expect(rootUriToPath(uri, 'windows')).toBe(windowsPath);
    expect(parseRootInput(uri, 'windows')).toBe(windowsPath);
  });

  it('normalizes and refuses what is not absolute on Windows', () => {
    expect(parseRootInput('C:/Users/./Me/../You/', 'windows')).toBe('C:\\Users\\You');
    expect(parseRootInput('C:\\', 'windows')).toBe('C:\\');
    expect(() => parseRootInput('\\Users\\Me', 'windows')).toThrow(expect.objectContaining({ code: 'not-absolute' }));
    expect(() => parseRootInput('C:relative', 'windows')).toThrow(expect.objectContaining({ code: 'not-absolute' }));
    // On POSIX a drive letter is just a relative name.
    expect(() => parseRootInput('C:\\Users', 'posix')).toThrow(expect.objectContaining({ code: 'not-absolute' }));
  });
});
