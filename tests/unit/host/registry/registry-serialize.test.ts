import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serialize } from '../../../../electron/host/registry/registry-serialize.js';
import { parseRegistry } from '../../../../electron/host/registry/registry-store.js';
import { emptyRegistry } from '../../../../shared/registry-schema.js';
import type { Registry } from '../../../../shared/domain.js';

describe('serialize', () => {
  it('round-trips, one root per line, with awkward characters', () => {
    const registry: Registry = {
      ...emptyRegistry(),
      roots: [
        { id: 'a', path: '/x/"quoted" \\\\ back', canonicalPath: '/x/y', name: 'roots": []', addedAt: 't' },
        { id: 'b', path: '/项目/$&/$1', canonicalPath: '/项目', name: 'b', addedAt: 't' },
      ],
      grants: { s: { a: 'read-only' } },
    };
    const text = serialize(registry);
    expect(parseRegistry(text).registry).toEqual(registry);
    expect(text.split('\n').filter((line) => line.trim().startsWith('{"id"'))).toHaveLength(2);
    expect(parseRegistry(serialize(emptyRegistry())).registry).toEqual(emptyRegistry());
  });

  it('reuses cached pieces only while they hold the same roots: any edit sequence reads back exactly', () => {
    const rootAt = (n: number) => ({ id: `root-${n}-${'x'.repeat(n % 7)}`, path: `/p/${n}`, canonicalPath: `/p/${n}`, name: `r${n}`, addedAt: 't' });
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), at: fc.nat(), n: fc.nat(100_000) }),
      fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), name: fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim().length > 0) }),
      fc.record({ kind: fc.constant('grant' as const), at: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 40 }), (edits) => {
        let registry: Registry = { ...emptyRegistry(), roots: Array.from({ length: 400 }, (_, n) => rootAt(n)), grants: { s: {} } };
        serialize(registry);
        for (const step of edits) {
          const roots = [...registry.roots];
          const at = roots.length === 0 ? 0 : step.at % roots.length;
          if (step.kind === 'add') roots.splice(at, 0, rootAt(1000 + step.n));
          if (step.kind === 'remove') roots.splice(at, 1);
          if (step.kind === 'rename' && roots[at]) roots[at] = { ...roots[at], name: step.name };
          const grants = step.kind === 'grant' && roots[at] ? { s: { ...registry.grants.s, [roots[at].id]: 'read-write' as const } } : registry.grants;
          registry = { ...registry, roots, grants };
          expect(parseRegistry(serialize(registry)).registry).toEqual(registry);
        }
      }),
      { numRuns: 60 },
    );
  });
});
