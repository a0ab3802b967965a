// The macOS profile cannot run here (no macOS): these tests read the generated text.
import { describe, expect, it } from 'vitest';
import { sbplString, seatbeltProfile, type SeatbeltInput } from '../../../../electron/host/sandbox/seatbelt-profile.js';

function profile(overrides: Partial<SeatbeltInput> = {}): string[] {
  return seatbeltProfile({
    programPaths: ['/opt/homebrew/Cellar/node/22.1.0', '/Users/me/servers/fs'],
    roots: [
      { path: '/Users/me/code', mode: 'read-write' },
      { path: '/Users/me/Documents', mode: 'read-only' },
    ],
    home: '/Users/me/Library/Application Support/MCP Roots Manager/sandbox/servers/s/home',
    tmp: '/Users/me/Library/Application Support/MCP Roots Manager/sandbox/servers/s/tmp',
    dataDir: '/Users/me/Library/Application Support/MCP Roots Manager',
    network: false,
    userHome: '/Users/me',
    ...overrides,
  }).split('\n');
}

const allowing = (lines: string[], operation: RegExp) => lines.filter((line) => line.startsWith('(allow') && operation.test(line)).join('\n');

describe('seatbeltProfile', () => {
  it('denies by default', () => {
    expect(profile().slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
  });

  it('lets the runtime and the program be read, not written', () => {
    const lines = profile();
    expect(allowing(lines, /file-read\*/)).toContain('(subpath "/usr")');
    expect(allowing(lines, /file-read\*/)).toContain('(subpath "/opt/homebrew/Cellar/node/22.1.0")');
    expect(allowing(lines, /file-write\*/)).not.toContain('/usr');
    expect(allowing(lines, /file-write\*/)).not.toContain('/opt/homebrew');
  });

  it('gives a read-write root reads and writes, a read-only root reads only', () => {
    const lines = profile();
    expect(allowing(lines, /file-write\*/)).toContain('(subpath "/Users/me/code")');
    expect(allowing(lines, /file-read\*/)).toContain('(subpath "/Users/me/Documents")');
    expect(allowing(lines, /file-write\*/)).not.toContain('/Users/me/Documents');
  });

  it('allows nothing else of HOME: no rule names ~/.ssh or HOME itself beyond metadata', () => {
    const lines = profile();
    expect(lines.join('\n')).not.toContain('.ssh');
    const homeData = lines.filter((line) => line.includes('(subpath "/Users/me")'));
    expect(homeData).toEqual([]);
    // HOME is only an ancestor: its metadata (for realpath), never its contents.
    expect(lines.find((line) => line.startsWith('(allow file-read-metadata'))).toContain('(literal "/Users/me")');
  });

  it('keeps a read-only root inside a read-write one read-only (later rules win)', () => {
    const lines = profile({ roots: [{ path: '/w', mode: 'read-write' }, { path: '/w/ro', mode: 'read-only' }] });
    const deny = lines.findIndex((line) => line === '(deny file-write* (subpath "/w/ro"))');
    expect(deny).toBeGreaterThan(lines.findIndex((line) => line.includes('file-write*') && line.includes('(subpath "/w")')));
  });

  it('masks the app data folder under a root, then opens the private HOME/TMPDIR below it', () => {
    const lines = profile({ roots: [{ path: '/Users/me', mode: 'read-write' }] });
    const mask = lines.findIndex((line) => line.startsWith('(deny file-read* file-write* (subpath "/Users/me/Library/Application Support/MCP Roots Manager"))'));
    const privateDirs = lines.findIndex((line) => line.startsWith('(allow file-read* file-write*') && line.includes('/sandbox/servers/s/home'));
    expect(mask).toBeGreaterThan(0);
    expect(privateDirs).toBeGreaterThan(mask);
    expect(profile().some((line) => line.startsWith('(deny file-read* file-write*'))).toBe(false);
  });

  it('allows the network only when it is on', () => {
    expect(profile()).not.toContain('(allow network*)');
    expect(profile({ network: true })).toContain('(allow network*)');
  });

  it('quotes paths so a quote or backslash cannot end the string early', () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    const lines = profile({ roots: [{ path: '/x") (allow file-write* (subpath "/', mode: 'read-only' }] });
    expect(lines.join('\n')).not.toContain('(allow file-write* (subpath "/")');
  });
});

describe('seatbeltProfile, the classes of #22 (untested on macOS: the text only)', () => {
  it('denies writes to protected names at any depth of a writable root, existing or not, after every allow', () => {
    const lines = profile();
    const deny = lines.findIndex((line) => line.startsWith('(deny file-write* (regex'));
    expect(deny).toBeGreaterThan(lines.findIndex((line) => line.includes('(allow file-read* file-write*')));
    const pattern = new RegExp(JSON.parse(/#("[^"]+")/.exec(lines[deny] as string)?.[1] as string));
    expect(pattern.test('/Users/me/code/.git/hooks/pre-commit')).toBe(true);
    expect(pattern.test('/Users/me/code/app/.vscode/tasks.json')).toBe(true);
    expect(pattern.test('/Users/me/code/.mcp.json')).toBe(true);
    expect(pattern.test('/Users/me/code/src/index.ts')).toBe(false);
    expect(pattern.test('/Users/me/code/my.mcp.json')).toBe(false);
  });

  it('protects the home folder’s start-up files where a writable root holds the home folder, and the data folder’s ancestors', () => {
    const lines = profile({ roots: [{ path: '/Users/me', mode: 'read-write' }] });
    const regexes = lines.filter((line) => line.startsWith('(deny file-write* (regex')).join('\n');
    expect(regexes).toContain('.zshrc');
    expect(lines).toContainEqual(expect.stringMatching(/^\(deny file-write\* \(literal "\/Users\/me\/Library"\)/));
  });

  it('reaches no Unix socket with the network on, and no keychain', () => {
    const lines = profile({ network: true });
    expect(lines.at(-2)).toBe('(deny network* (remote unix-socket))');
    expect(lines.join('\n')).not.toContain('com.apple.SecurityServer');
  });
});
