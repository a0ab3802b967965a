import { describe, expect, it } from 'vitest';
import { fixCommand, toolErrorTexts, toolRefusalNote, withNote } from '../../../electron/proxy/refusal-notes.js';
import { shellWord } from '../../../shared/shell-word.js';

describe('refusal notes', () => {
  it('offers the narrowest command in the CLI syntax: read-only for a folder outside the grants, read-write for a read-only one', () => {
    expect(fixCommand('fs', { kind: 'outside-grants', folder: '/home/a/docs' })).toBe('mcp-roots roots add /home/a/docs && mcp-roots grant fs /home/a/docs --read-only');
    expect(fixCommand('fs', { kind: 'read-only-grant', folder: '/home/a/docs' })).toBe('mcp-roots grant fs /home/a/docs --read-write');
    // bwrap's own failure has no grant to offer.
    expect(fixCommand('fs', { kind: 'sandbox-setup', folder: '/x' })).toBeUndefined();
  });

  it('quotes names and folders a shell would split or expand', () => {
    expect(shellWord('@scope/pkg-1.2')).toBe('@scope/pkg-1.2');
    expect(shellWord('My Server')).toBe("'My Server'");
    expect(shellWord("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    expect(fixCommand('My Server', { kind: 'outside-grants', folder: '/home/a/My Docs' })).toBe("mcp-roots roots add '/home/a/My Docs' && mcp-roots grant 'My Server' '/home/a/My Docs' --read-only");
  });

  it('says the path is not granted, beside the server words, which are kept as they are', () => {
    const note = toolRefusalNote('dc', { kind: 'outside-grants', path: '/home/a/x/secret.txt', folder: '/home/a/x', code: 'ENOENT', line: 'ENOENT: no such file or directory' });
    expect(note).toBe('MCP Roots Manager: /home/a/x/secret.txt is not granted to dc: its sandbox hides it, so the server reports it as not found. To allow it: mcp-roots roots add /home/a/x && mcp-roots grant dc /home/a/x --read-only');
    const result = { content: [{ type: 'text', text: 'ENOENT: no such file or directory' }], isError: true };
    expect(withNote(result, note as string)).toEqual({ content: [{ type: 'text', text: 'ENOENT: no such file or directory' }, { type: 'text', text: note }], isError: true });
  });

  it('reads only errors: a successful result that mentions a missing path is left alone', () => {
    expect(toolErrorTexts({ content: [{ type: 'text', text: 'No such file or directory: /x' }] })).toEqual([]);
    expect(toolErrorTexts({ isError: true, content: [{ type: 'image', data: '' }, { type: 'text', text: 'a' }] })).toEqual(['a']);
    expect(toolErrorTexts(undefined)).toEqual([]);
  });
});
