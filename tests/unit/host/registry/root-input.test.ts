import { describe, expect, it } from 'vitest';
import { looksLikePath, resolveRootInput } from '../../../../electron/host/registry/root-input.js';

const here = { cwd: '/home/me/code/app', home: '/home/me' };

describe('a folder as typed on the command line', () => {
  it('resolves ., relative paths and ~ against where it was typed', () => {
    expect(resolveRootInput('.', here)).toBe('/home/me/code/app');
    expect(resolveRootInput('..', here)).toBe('/home/me/code');
    expect(resolveRootInput('docs/api', here)).toBe('/home/me/code/app/docs/api');
    expect(resolveRootInput('~', here)).toBe('/home/me');
    expect(resolveRootInput('~/notes', here)).toBe('/home/me/notes');
    expect(resolveRootInput('/srv/data', here)).toBe('/srv/data');
  });

  it('leaves URIs (file:// or not) to the host, which accepts only file:// and says why', () => {
    expect(resolveRootInput('file:///home/me/My%20Notes', here)).toBe('file:///home/me/My%20Notes');
    expect(resolveRootInput('https://example.com/x', here)).toBe('https://example.com/x');
  });

  it('tells a path from a bare name', () => {
    expect(['.', '..', '~/x', 'a/b', '/abs', 'file:///x'].every(looksLikePath)).toBe(true);
    expect(['docs', 'src', '3f2a9c'].some(looksLikePath)).toBe(false);
  });
});
