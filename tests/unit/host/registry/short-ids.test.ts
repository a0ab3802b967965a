import { describe, expect, it } from 'vitest';
import { registryShortIds, shortIds } from '../../../../electron/host/registry/short-ids.js';

describe('short ids', () => {
  it('are six characters while that tells every id apart', () => {
    const ids = ['3f2a9c11-aaaa', '9be21000-bbbb', '77777777-cccc'];
    expect([...shortIds(ids).values()]).toEqual(['3f2a9c', '9be210', '777777']);
  });

  it('grow, all to one length, until no two ids share a prefix', () => {
    const ids = ['3f2a9c11-aaaa', '3f2a9c12-bbbb', '9be21000-cccc'];
    expect([...shortIds(ids).values()]).toEqual(['3f2a9c11', '3f2a9c12', '9be21000']);
  });

  it('cover roots and servers together, so one prefix never names two things', () => {
    const short = registryShortIds({ roots: [{ id: 'abcdef01-root' }], servers: [{ id: 'abcdef02-server' }] });
    expect(short.get('abcdef01-root')).not.toBe(short.get('abcdef02-server'));
    expect(short.get('abcdef01-root')).toBe('abcdef01');
  });
});
