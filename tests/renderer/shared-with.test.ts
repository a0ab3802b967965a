// The Folders tab names the servers a folder is shared with (issue 23, item 12), not only a count.
import { describe, expect, it } from 'vitest';
import type { ServerView } from '../../shared/domain.js';
import { serverNames, sharedWithByRoot } from '../../renderer/src/components/shared-with.js';
import { createTranslator } from '../../shared/i18n/translate.js';

const server = (name: string, granted: string[], effective: string[]) => ({ name, grantedRootIds: granted, effectiveRootIds: effective }) as unknown as ServerView;

describe('sharedWithByRoot', () => {
  it('names each folder’s servers in list order, and those not told about it now', () => {
    const of = sharedWithByRoot([server('github', ['a', 'b'], ['a']), server('notes', [], []), server('everything', ['a'], ['a'])]);
    expect(of('a')).toEqual({ servers: ['github', 'everything'], hidden: [] });
    expect(of('b')).toEqual({ servers: ['github'], hidden: ['github'] });
    expect(of('c')).toEqual({ servers: [], hidden: [] });
  });

  it('lists three names, then how many more, in each language', () => {
    const names = ['github', 'notes', 'everything', 'slack', 'memory'];
    expect(serverNames(createTranslator('en'), names.slice(0, 3))).toBe('github, notes, everything');
    expect(serverNames(createTranslator('en'), names)).toBe('github, notes, everything and 2 more');
    expect(serverNames(createTranslator('de'), names.slice(0, 4))).toBe('github, notes, everything und 1 weiterer');
    expect(serverNames(createTranslator('zh-CN'), names)).toBe('github, notes, everything 等另外 2 个');
  });
});
