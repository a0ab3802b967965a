// A record folded into its net changes: what "Changes by this server" and `audit --changes` show.
import { describe, expect, it } from 'vitest';
import { netChanges, type FileRecordEntry } from '../../../shared/file-record.js';

let clock = 0;
const at = (op: FileRecordEntry['op'], path: string, extra: Partial<FileRecordEntry> = {}): FileRecordEntry => ({ time: ++clock, op, path, ...extra });

describe('net changes', () => {
  it('a file made and removed is no change; an edit of an existing file is a change; a removal of one is a deletion', () => {
    const changes = netChanges([at('create', '/p/tmp'), at('write', '/p/tmp', { bytes: 3 }), at('delete', '/p/tmp'), at('write', '/p/notes', { bytes: 9 }), at('delete', '/p/old')]);
    expect(changes.map(({ path, change }) => [path, change])).toEqual([
      ['/p/notes', 'modified'],
      ['/p/old', 'deleted'],
    ]);
  });

  it('a rename of an existing file deletes the old path and creates the new one from it; over an existing file it modifies that one', () => {
    expect(netChanges([at('rename', '/p/a', { to: '/p/b' })]).map(({ path, change, from }) => [path, change, from])).toEqual([
      ['/p/a', 'deleted', undefined],
      ['/p/b', 'created', '/p/a'],
    ]);
    // An editor's save: a new file written beside, then renamed over the original.
    const save = netChanges([at('create', '/p/.doc.swp'), at('write', '/p/.doc.swp', { bytes: 5 }), at('delete', '/p/doc'), at('rename', '/p/.doc.swp', { to: '/p/doc' })]);
    expect(save.map(({ path, change }) => [path, change])).toEqual([['/p/doc', 'modified']]);
  });

  it('refused operations and dropped counts change nothing; folders and links keep their kind', () => {
    const changes = netChanges([at('mkdir', '/p/.git', { rule: 'protected name' }), at('dropped', '', { count: 3 }), at('mkdir', '/p/src'), at('symlink', '/p/link')]);
    expect(changes.map(({ path, kind }) => [path, kind])).toEqual([
      ['/p/src', 'folder'],
      ['/p/link', 'link'],
    ]);
  });
});
