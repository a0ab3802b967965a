// Names that tell folders apart. Two roots may share a name (two projects' `src`); wherever the CLI
// lists a root by name, such roots get as much of their path as it takes to differ: `a/src`, `b/src`.
import path from 'node:path';
import type { RootRecord } from '../../../shared/domain.js';

type Labelled = Pick<RootRecord, 'id' | 'name' | 'path'>;

export function rootLabels(roots: readonly Labelled[]): Map<string, string> {
  const byName = new Map<string, Labelled[]>();
  for (const root of roots) byName.set(root.name, [...(byName.get(root.name) ?? []), root]);
  const labels = new Map<string, string>();
  for (const [name, group] of byName) {
    if (group.length === 1) {
      labels.set((group[0] as Labelled).id, name);
      continue;
    }
    for (const root of group) labels.set(root.id, distinguish(root, group));
  }
  return labels;
}

/** The shortest tail of the root's path that no other root of its group shares. */
function distinguish(root: Labelled, group: readonly Labelled[]): string {
  const parts = segments(root.path);
  const others = group.filter((other) => other.id !== root.id).map((other) => segments(other.path));
  for (let take = 2; take <= parts.length; take++) {
    const tail = parts.slice(-take).join('/');
    if (others.every((other) => other.slice(-take).join('/') !== tail)) return labelWith(root, tail, take === parts.length);
  }
  // Same path twice (a symlink and its target): only the id tells them apart.
  return `${root.name} (${root.path})`;
}

function labelWith(root: Labelled, tail: string, whole: boolean): string {
  const shown = whole ? root.path : tail;
  // A renamed root keeps its name in front; a folder's own name is already the end of the tail.
  return root.name === path.basename(root.path) ? shown : `${root.name} (${shown})`;
}

const segments = (value: string) => value.split(/[\\/]+/).filter(Boolean);
