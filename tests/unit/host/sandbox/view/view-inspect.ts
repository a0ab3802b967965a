// Runs the sandbox helper's `inspect` (native/sandbox-helper/inspect.c): what the helper itself reads
// in a table the app encodes, and how its rules answer for a path. Tests only.
import { spawnSync } from 'node:child_process';
import { helperBinary } from '../../../../../electron/host/sandbox/view/helper-binary.js';
import { encodeTable } from '../../../../../electron/host/sandbox/view/view-protocol.js';
import type { ViewEntry } from '../../../../../electron/host/sandbox/view/view-plan.js';
import type { ViewRules } from '../../../../../electron/host/sandbox/view/view-rules.js';

export const helper = helperBinary();

export interface Inspected {
  error?: string;
  entries: { kind: number; flags: number; path: Buffer; extra?: Buffer }[];
  answers: { guard: number; group: string }[];
}

function str(value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32LE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A rule query: is `rel` (components below the grant at `grant`) free, on the way to a protected name, or protected? */
export function query(grant: string, rel: readonly (string | Buffer)[], optOuts = 0n): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32LE(rel.length);
  const bits = Buffer.alloc(8);
  bits.writeBigUInt64LE(optOuts);
  const payload = Buffer.concat([str(grant), bits, count, ...rel.map(str)]);
  const head = Buffer.alloc(5);
  head.writeUInt32LE(payload.length);
  head[4] = 2;
  return Buffer.concat([head, payload]);
}

export function inspect(rules: ViewRules, entries: readonly ViewEntry[], queries: readonly Buffer[] = [], raw?: Buffer): Inspected {
  const input = Buffer.concat([raw ?? encodeTable(1, rules, entries), ...queries]);
  const run = spawnSync(helper as string, ['inspect'], { input, timeout: 30_000 });
  const lines = run.stdout.toString('utf8').split('\n').filter(Boolean);
  const result: Inspected = { entries: [], answers: [] };
  for (const line of lines) {
    const [word, ...rest] = line.split(' ');
    if (word === 'error') result.error = rest.join(' ');
    if (word === 'entry') {
      const [kind, flags, path, extra] = rest;
      result.entries.push({ kind: Number(kind), flags: Number(flags), path: Buffer.from(path as string, 'hex'), ...(extra ? { extra: extra === '-' ? Buffer.alloc(0) : Buffer.from(extra, 'hex') } : {}) });
    }
    if (word === 'guard') result.answers.push({ guard: Number(rest[0]), group: rest[1] as string });
  }
  return result;
}
