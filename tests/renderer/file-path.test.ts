// URIs shown as paths: decoded, with Windows drive letters and UNC shares as people write them.
import { describe, expect, it } from 'vitest';
import { uriToPath } from '../../renderer/src/file-path.js';

describe('uriToPath', () => {
  it('decodes percent-encoding and keeps # and % that are part of a name', () => {
    expect(uriToPath('file:///home/me/My%20Notes')).toBe('/home/me/My Notes');
    expect(uriToPath('file:///tmp/a%2523b%25c')).toBe('/tmp/a%23b%c');
    expect(uriToPath('file:///tmp/%E4%B8%AD%E6%96%87')).toBe('/tmp/中文');
  });
  it('writes Windows paths and shares the Windows way', () => {
    expect(uriToPath('file:///C:/Users/Me/Project%20A')).toBe('C:\\Users\\Me\\Project A');
    expect(uriToPath('file://server/share/docs')).toBe('//server/share/docs');
  });
  it('leaves anything else as it is', () => {
    expect(uriToPath('not a uri')).toBe('not a uri');
    expect(uriToPath('https://example.com/x')).toBe('https://example.com/x');
  });
});
