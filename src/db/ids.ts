import { randomBytes } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';

// Identifiers are not secrets: one randomBytes call serves many of them (the call, not the
// entropy, is what costs on the write path).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** A random, URL-safe identifier with a type prefix: `ws_…`, `key_…`, `out_…`, `whe_…`. */
export function newId(prefix: string, bytes = 10): string {
  if (offset + bytes > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, bytes));
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return `${prefix}_${id}`;
}

const HALF = 2 ** 40;
const half = (b: Buffer, at: number) => b.readUIntBE(at, 5);
const hex10 = (n: number) => n.toString(16).padStart(10, '0');

/**
 * Identifiers like newId's (`<prefix>_` and 20 hex digits) for many rows of one statement: the
 * first random, the next ones that number plus 1, 2, … (modulo 2⁸⁰). An index on them takes a
 * batch's rows side by side rather than at a random place each (a re-rank's hundred thousand
 * outbox rows: half the insert's CPU), and two batches share an identifier only if their random
 * starts fall within a batch's length of each other.
 */
export function consecutiveIds(prefix: string, start: Buffer = randomBytes(10)): () => string {
  let hi = half(start, 0);
  let lo = half(start, 5);
  let head = `${prefix}_${hex10(hi)}`;
  return () => {
    const id = head + hex10(lo);
    if (++lo === HALF) {
      lo = 0;
      hi = (hi + 1) % HALF;
      head = `${prefix}_${hex10(hi)}`;
    }
    return id;
  };
}

let lastSeq = 0;
/**
 * Increasing within a process, ordered by time across processes (epoch µs, bumped on ties): the
 * list order of approvals, supervision entries, reports, outreach rows and watch events. Ledger
 * entries take theirs from the wallet row (appendEntry).
 */
export function nextSeq(now: Date): number {
  lastSeq = Math.max(lastSeq + 1, now.getTime() * 1000);
  return lastSeq;
}

let idSeq = 0;
/**
 * An identifier that sorts in writing order (time, then a counter within one process, then
 * random bytes): `deal_…`, `dnote_…`, `ast_…`. Lists and history ties walk it.
 */
export function sortableId(prefix: string, now: Date): string {
  idSeq = (idSeq + 1) % 0x1000000;
  return `${prefix}_${now.getTime().toString(16).padStart(12, '0')}${idSeq.toString(16).padStart(6, '0')}${newId('', 4).slice(1)}`;
}

/** A place in a list ordered by (seq, id): where a page starts. */
export interface SeqKey {
  seq: number;
  id: string;
}

/**
 * The rows after `after` in a newest-first (seq desc, id desc) list: the keyset condition of its
 * next page (`query.where(beforeSeq(after))`). Any table with `seq` and `id` columns.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const beforeSeq = (after: SeqKey) => (eb: ExpressionBuilder<any, any>) =>
  eb.or([eb('seq', '<', after.seq), eb.and([eb('seq', '=', after.seq), eb('id', '<', after.id)])]);
