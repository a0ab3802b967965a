// The registry as the bytes of config.json, built for one edit at a time.
//
// Plain JSON, readable and diffable: one root per line, one server's grants (root id -> mode) per line, the rest
// indented. With 10,000 roots the file is ~2.8 MB, and turning it all into text and then bytes
// again on every edit (JSON.stringify, join, UTF-8 encode) took 12-18 ms of the 20 ms budget for one
// persisted edit. But an edit changes one root or one grant list, and edits replace objects rather
// than mutate them (registry-edits.ts), so:
// - each root's line is encoded once per root object;
// - roots are grouped into chunks whose boundaries depend on the roots' ids, not on positions, so
//   adding or removing one root rebuilds only its own chunk, and each chunk's bytes are reused for
//   as long as it holds the very same root objects;
// - each server's grant list is encoded once per array.
// The file is written from these pieces with one writev; nothing is concatenated.
import type { Registry, RootRecord } from '../../../shared/domain.js';
import type { WriterStamp } from './registry-writer.js';

/** A chunk ends after a root whose id hashes to 0 mod this: ~64 roots, ~18 KB per chunk on average. */
const CHUNK_SPREAD = 64;

interface EncodedRoot {
  line: string;
  endsChunk: boolean;
}

const encodedRoots = new WeakMap<RootRecord, EncodedRoot>();

function encodeRoot(root: RootRecord): EncodedRoot {
  let encoded = encodedRoots.get(root);
  if (encoded === undefined) {
    encoded = { line: JSON.stringify(root), endsChunk: hashOf(root.id) % CHUNK_SPREAD === 0 };
    encodedRoots.set(root, encoded);
  }
  return encoded;
}

/** FNV-1a: cheap, stable, and spreads uuids and short test ids alike. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

interface EncodedChunk {
  roots: readonly RootRecord[];
  bytes: Buffer;
}

/** Keyed by a chunk's first root; valid while the chunk still holds exactly the same root objects. */
const encodedChunks = new WeakMap<RootRecord, EncodedChunk>();

const ROOT_SEPARATOR = ',\n  ';
const ROOT_SEPARATOR_BYTES = Buffer.from(ROOT_SEPARATOR);

function chunkBytes(roots: readonly RootRecord[], start: number, end: number): Buffer {
  const first = roots[start] as RootRecord;
  const cached = encodedChunks.get(first);
  if (cached && cached.roots.length === end - start && cached.roots.every((root, k) => root === roots[start + k])) return cached.bytes;
  const members = roots.slice(start, end);
  const bytes = Buffer.from(members.map((root) => encodeRoot(root).line).join(ROOT_SEPARATOR));
  encodedChunks.set(first, { roots: members, bytes });
  return bytes;
}

function rootsBytes(roots: readonly RootRecord[]): Buffer[] {
  if (roots.length === 0) return [Buffer.from('[]')];
  const parts: Buffer[] = [Buffer.from('[\n  ')];
  let start = 0;
  for (let i = 0; i < roots.length; i++) {
    if (!encodeRoot(roots[i] as RootRecord).endsChunk && i < roots.length - 1) continue;
    if (start > 0) parts.push(ROOT_SEPARATOR_BYTES);
    parts.push(chunkBytes(roots, start, i + 1));
    start = i + 1;
  }
  parts.push(Buffer.from('\n ]'));
  return parts;
}

const encodedGrantLists = new WeakMap<Registry['grants'][string], string>();

function grantsText(grants: Registry['grants']): string {
  const entries = Object.entries(grants);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([serverId, granted]) => {
    let list = encodedGrantLists.get(granted);
    if (list === undefined) {
      list = JSON.stringify(granted);
      encodedGrantLists.set(granted, list);
    }
    return `${JSON.stringify(serverId)}: ${list}`;
  });
  return `{\n  ${lines.join(',\n  ')}\n }`;
}

/** config.json's bytes, as pieces to write in order. */
/** `writtenBy`: who wrote it (registry-writer.ts), kept beside the registry's own keys. */
export function serializeToBuffers(registry: Registry & { writtenBy?: WriterStamp }): Buffer[] {
  const { roots, grants, ...rest } = registry;
  // `grants` and `roots` go last, in that order, as placeholders in the small part: the only
  // '"grants": {}' and '"roots": []' outside strings (inside one the quotes would be escaped).
  const body = JSON.stringify({ ...rest, grants: {}, roots: [] }, null, 1);
  const grantsAt = body.lastIndexOf('"grants": {}');
  const rootsAt = body.lastIndexOf('"roots": []');
  return [
    Buffer.from(`${body.slice(0, grantsAt)}"grants": ${grantsText(grants)}${body.slice(grantsAt + '"grants": {}'.length, rootsAt)}"roots": `),
    ...rootsBytes(roots),
    Buffer.from(body.slice(rootsAt + '"roots": []'.length)),
  ];
}

export function serialize(registry: Registry & { writtenBy?: WriterStamp }): string {
  return Buffer.concat(serializeToBuffers(registry)).toString('utf8');
}
