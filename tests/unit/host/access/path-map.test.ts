// Paths as the server sees them: the longest host path that contains a folder wins, a sibling that
// only shares a prefix is never mapped, and server paths follow their own platform's rules.
import { describe, expect, it } from 'vitest';
import { mapToServer, serverPathToUri } from '../../../../electron/host/access/path-map.js';

const map = [
  { hostPath: '/home/me', serverPath: '/home/user' },
  { hostPath: '/home/me/proj/', serverPath: '/projects/proj' },
];

describe('mapToServer', () => {
  it('maps a folder and what is below it by the longest host path that contains it', () => {
    expect(mapToServer('/home/me/proj', map)).toBe('/projects/proj');
    expect(mapToServer('/home/me/proj/src/lib', map)).toBe('/projects/proj/src/lib');
    expect(mapToServer('/home/me/notes', map)).toBe('/home/user/notes');
  });

  it('leaves a folder no mapping contains, and never maps a sibling that shares a prefix', () => {
    expect(mapToServer('/home/me/project', [{ hostPath: '/home/me/proj', serverPath: '/p' }])).toBeUndefined();
    expect(mapToServer('/srv/data', map)).toBeUndefined();
    expect(mapToServer('/home/me/proj', undefined)).toBeUndefined();
    expect(mapToServer('/home/me/proj', [])).toBeUndefined();
  });

  it('joins below a Windows server path with its separator, and maps from a Windows host case-insensitively', () => {
    expect(mapToServer('/home/me/proj/src', [{ hostPath: '/home/me/proj', serverPath: 'C:\\work\\proj' }])).toBe('C:\\work\\proj\\src');
    expect(mapToServer('C:\\Users\\Me\\proj\\src', [{ hostPath: 'c:\\users\\me', serverPath: '/mnt/c/Users/Me' }])).toBe('/mnt/c/Users/Me/proj/src');
  });
});

describe('serverPathToUri', () => {
  it('writes the URI by the server path\'s own rules', () => {
    expect(serverPathToUri('/projects/my proj')).toBe('file:///projects/my%20proj');
    expect(serverPathToUri('C:\\work\\proj')).toBe('file:///C:/work/proj');
    expect(serverPathToUri('\\\\wsl$\\Ubuntu\\home\\me')).toBe('file://wsl$/Ubuntu/home/me');
  });
});
