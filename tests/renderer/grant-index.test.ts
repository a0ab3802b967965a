// The matrix's grant lookups: right answers, and a server's Set is built only when one of its cells
// is asked about (the first frame shows only the columns on screen).
import { describe, expect, it } from 'vitest';
import type { ServerView } from '../../shared/domain.js';
import { createGrantIndex } from '../../renderer/src/grant-index.js';

const server = (id: string, granted: string[], effective: string[]) => ({ id, grantedRootIds: granted, effectiveRootIds: effective }) as unknown as ServerView;

describe('grant index', () => {
  it('answers granted and effective per server and root', () => {
    const index = createGrantIndex([server('s1', ['r1', 'r2'], ['r1']), server('s2', [], [])]);
    expect(index.isGranted('s1', 'r1')).toBe(true);
    expect(index.isGranted('s1', 'r2')).toBe(true);
    expect(index.isEffective('s1', 'r2')).toBe(false);
    expect(index.isEffective('s1', 'r1')).toBe(true);
    expect(index.isGranted('s2', 'r1')).toBe(false);
    expect(index.isGranted('gone', 'r1')).toBe(false);
    expect(index.isEffective('gone', 'r1')).toBe(false);
  });

  it("reads a server's grants only when one of its cells is asked about", () => {
    const untouched = server('s2', [], []);
    Object.defineProperty(untouched, 'grantedRootIds', {
      get() {
        throw new Error('s2 was indexed although no cell of it was asked about');
      },
    });
    const index = createGrantIndex([server('s1', ['r1'], []), untouched]);
    expect(index.isGranted('s1', 'r1')).toBe(true);
  });
});
