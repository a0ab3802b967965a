// The control socket's frames, the app's side (native/sandbox-helper/control.c is the helper's):
// a u32 length (little-endian), a u8 type, then the payload. Binary with lengths, never text: a
// folder may be called anything, and nothing here is parsed back from its own words.
//   app -> helper   TABLE    u32 seq, the rule groups, the rules, the entries (view-plan.ts)
//   helper -> app   APPLIED  u32 seq, i32 errno (0: in force), str why
//                   HOLDER   u32 pid of the holder (bwrap's outer process)
//                   AUDIT    u32 count, u64 dropped, then each event: u8 op, i32 errno, u64 time (ms),
//                            u64 bytes, u32 reads, str path, str path2, str rule, bytes data
//                            (view.c, the record; data: a file's content before its first change)
import type { ViewEntry } from './view-plan.js';
import type { ViewRules } from './view-rules.js';

export const FRAME_TABLE = 1;
export const FRAME_APPLIED = 1;
export const FRAME_HOLDER = 2;
export const FRAME_AUDIT = 3;

/** The record's operations by the helper's numbers (view.c enum audit_op). */
export const AUDIT_OPS = ['dropped', 'create', 'mkdir', 'write', 'truncate', 'rename', 'delete', 'rmdir', 'chmod', 'symlink', 'link', 'read', 'before'] as const;
export type AuditOp = Exclude<(typeof AUDIT_OPS)[number], 'dropped'>;

/** One thing the server did (or was refused) in a recorded grant, as the helper reports it. */
export interface ViewAuditEvent {
  op: AuditOp;
  time: number;
  path: string;
  /** A rename's or a link's new path. */
  to?: string | undefined;
  /** Bytes written or read, a truncation's new size, a chmod's mode. */
  bytes?: number | undefined;
  /** Reads summed into this event. */
  reads?: number | undefined;
  /** Set when refused: the rule that refused it, and the errno. */
  rule?: string | undefined;
  errno?: number | undefined;
  /** 'before': the file's content before the server's first change of it. */
  data?: Buffer | undefined;
}

/** The helper's entry kinds and flags (native/sandbox-helper/helper.h). */
const KIND = { dir: 1, link: 2, backing: 3, file: 4 } as const;
const FLAG = { writable: 0x01, protect: 0x02, tmp: 0x08, record: 0x10 } as const;

class Writer {
  private readonly chunks: Buffer[] = [];
  u8(value: number): this {
    this.chunks.push(Buffer.from([value]));
    return this;
  }
  u32(value: number): this {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value);
    this.chunks.push(buffer);
    return this;
  }
  u64(value: bigint | number): this {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(BigInt(value));
    this.chunks.push(buffer);
    return this;
  }
  /** A name: its UTF-8 bytes with their length. A path holding NUL is refused by the helper, and never planned here. */
  str(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    return this.u32(bytes.length).raw(bytes);
  }
  raw(bytes: Buffer): this {
    this.chunks.push(bytes);
    return this;
  }
  frame(type: number): Buffer {
    const payload = Buffer.concat(this.chunks);
    const head = Buffer.alloc(5);
    head.writeUInt32LE(payload.length);
    head[4] = type;
    return Buffer.concat([head, payload]);
  }
}

export function encodeTable(seq: number, rules: ViewRules, entries: readonly ViewEntry[]): Buffer {
  const w = new Writer().u32(seq).u32(rules.groups.length);
  for (const group of rules.groups) w.str(group);
  w.u32(rules.rules.length);
  for (const rule of rules.rules) w.u32(rule.group).str(rule.anchor ?? '').str(rule.pattern);
  w.u32(entries.length);
  for (const entry of entries) {
    const flags = entry.kind === 'backing' ? (entry.writable ? FLAG.writable : 0) | (entry.protect ? FLAG.protect : 0) | (entry.tmp ? FLAG.tmp : 0) | (entry.record ? FLAG.record : 0) : 0;
    w.u8(KIND[entry.kind]).u32(flags).str(entry.path);
    if (entry.kind === 'link') w.str(entry.target);
    if (entry.kind === 'backing') w.str(entry.source ?? '').u64(entry.identity?.dev ?? 0).u64(entry.identity?.ino ?? 0).u64(entry.optOuts);
  }
  return w.frame(FRAME_TABLE);
}

export type HelperFrame = { type: 'applied'; seq: number; errno: number; why: string } | { type: 'holder'; pid: number } | { type: 'audit'; events: ViewAuditEvent[]; dropped: number };

/** An AUDIT frame's events; a malformed one yields what it holds up to the fault. */
function decodeAudit(payload: Buffer): { events: ViewAuditEvent[]; dropped: number } {
  const events: ViewAuditEvent[] = [];
  if (payload.length < 12) return { events, dropped: 0 };
  const count = payload.readUInt32LE(0);
  const dropped = Number(payload.readBigUInt64LE(4));
  let at = 12;
  const str = () => {
    const length = payload.readUInt32LE(at);
    const text = payload.subarray(at + 4, at + 4 + length).toString('utf8');
    at += 4 + length;
    return text;
  };
  try {
    for (let i = 0; i < count; i++) {
      const code = payload[at] as number;
      const errno = payload.readInt32LE(at + 1);
      const time = Number(payload.readBigUInt64LE(at + 5));
      const bytes = Number(payload.readBigUInt64LE(at + 13));
      const reads = payload.readUInt32LE(at + 21);
      at += 25;
      const [path, to, rule] = [str(), str(), str()];
      const dataLength = payload.readUInt32LE(at);
      const data = payload.subarray(at + 4, at + 4 + dataLength);
      at += 4 + dataLength;
      if (data.length !== dataLength) break;
      const op = AUDIT_OPS[code];
      if (!op || op === 'dropped' || !path) continue;
      events.push({
        op,
        time,
        path,
        ...(to ? { to } : {}),
        ...(op === 'write' || op === 'read' || op === 'truncate' || op === 'chmod' || op === 'before' ? { bytes } : {}),
        ...(op === 'read' ? { reads } : {}),
        ...(errno ? { errno, rule: rule || 'refused' } : {}),
        ...(op === 'before' ? { data: Buffer.from(data) } : {}),
      });
    }
  } catch {
    // A frame cut short: the events before the fault stand.
  }
  return { events, dropped };
}

/** Splits the helper's byte stream into frames; what is incomplete waits for more. */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): HelperFrame[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: HelperFrame[] = [];
    while (this.pending.length >= 5) {
      const length = this.pending.readUInt32LE(0);
      if (this.pending.length < 5 + length) break;
      const type = this.pending[4];
      const payload = this.pending.subarray(5, 5 + length);
      this.pending = this.pending.subarray(5 + length);
      if (type === FRAME_APPLIED && payload.length >= 12) {
        const whyLength = payload.readUInt32LE(8);
        frames.push({ type: 'applied', seq: payload.readUInt32LE(0), errno: payload.readInt32LE(4), why: payload.subarray(12, 12 + whyLength).toString('utf8') });
      } else if (type === FRAME_HOLDER && payload.length >= 4) {
        frames.push({ type: 'holder', pid: payload.readUInt32LE(0) });
      } else if (type === FRAME_AUDIT) {
        frames.push({ type: 'audit', ...decodeAudit(payload) });
      }
    }
    return frames;
  }
}
