import { describe, expect, it } from 'vitest';
import { parseRegistry, serialize } from '../../../electron/host/registry-store.js';
import { emptyRegistry } from '../../../shared/registry-schema.js';
import type { Registry } from '../../../shared/domain.js';

describe('serialize', () => {
  it('round-trips, one root per line, with awkward characters', () => {
    const registry: Registry = {
      ...emptyRegistry(),
      roots: [
        { id: 'a', path: '/x/"quoted" \\\\ back', canonicalPath: '/x/y', name: 'roots": []', addedAt: 't' },
        { id: 'b', path: '/项目/$&/$1', canonicalPath: '/项目', name: 'b', addedAt: 't' },
      ],
      grants: { s: ['a'] },
    };
    const text = serialize(registry);
    expect(parseRegistry(text).registry).toEqual(registry);
    expect(text.split('\n').filter((line) => line.trim().startsWith('{"id"'))).toHaveLength(2);
    expect(parseRegistry(serialize(emptyRegistry())).registry).toEqual(emptyRegistry());
  });
});
