import { describe, expect, it } from 'vitest';
import { rootLabels } from '../../../../electron/host/registry/root-labels.js';

const root = (id: string, folder: string, name = folder.split('/').at(-1) as string) => ({ id, name, path: folder });

describe('root labels', () => {
  it('are the plain name where it is unique', () => {
    expect(rootLabels([root('1', '/home/me/a/src'), root('2', '/home/me/docs')])).toEqual(new Map([['1', 'src'], ['2', 'docs']]));
  });

  it('take as much of the path as it takes to tell roots of one name apart', () => {
    const labels = rootLabels([root('1', '/home/me/a/src'), root('2', '/home/me/b/src'), root('3', '/work/x/a/src')]);
    expect(labels.get('1')).toBe('me/a/src');
    expect(labels.get('2')).toBe('b/src');
    expect(labels.get('3')).toBe('x/a/src');
  });

  it('keep a chosen name in front of the path that tells it apart', () => {
    const labels = rootLabels([root('1', '/home/me/a', 'notes'), root('2', '/home/me/b', 'notes')]);
    expect(labels.get('1')).toBe('notes (me/a)');
    expect(labels.get('2')).toBe('notes (me/b)');
  });
});
