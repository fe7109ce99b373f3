/**
 * A ranking version's rows kept as blocks (accounts/rankings.ts writes them, accounts/ranking-reads.ts
 * reads them): block b holds the rows at positions b × BLOCK_ROWS + 1 … (b + 1) × BLOCK_ROWS, each
 * column packed — the store ids as a JSON array, the scores, logits and logit sds as 64-bit floats,
 * the model versions as 32-bit integers and the list marks as a byte (bit 0 in market, bit 1
 * explore, bit 2 held: listed by its source but kept out by its status), all little-endian. A refit of a million accounts writes about four thousand rows, not a
 * million, and deleting a version deletes as few.
 *
 * SQL reads one row of a block through three functions of (column, row index in the block):
 * `f64_at` (null for NaN: a logit sd not known), `i32_at` and `u8_at` (db/binary.ts) — so the
 * statements that read one store of the current version (the account's row, the row an outcome
 * keeps) stay one statement.
 */
import { type RawBuilder, sql } from 'kysely';
import { bytes } from '../db/binary.js';
import type { RankingBlocksTable, RankingRow } from './tables.js';

/** Rows of a block (fixed: stored blocks depend on it). */
export const BLOCK_ROWS = 256;

/** A block as a table row holds it (its packed columns). */
export type BlockColumns = Omit<RankingBlocksTable, 'workspace_id' | 'version' | 'block'>;

/** A block's rows decoded, index j the row at position block × BLOCK_ROWS + j + 1. */
export interface DecodedBlock {
  storeIds: string[];
  score: Float64Array;
  logit: Float64Array;
  /** NaN: unknown (null in a row). */
  logitSd: Float64Array;
  modelVersion: Int32Array;
  /** Bit 0: in market; bit 1: explore; bit 2: held. */
  flags: Uint8Array;
}

export const IN_MARKET = 1;
export const EXPLORE = 2;
/**
 * Held out of the list by its status: the row's source (the import file's `in_market`) lists it,
 * but a status that is never in market (accounts/in-market.ts NOT_IN_MARKET) keeps it off. Kept
 * beside the in-market mark, so a status set back to `open` restores the row as its source had
 * it (accounts/statuses-list.ts). Never set with IN_MARKET; a version written before it has none,
 * its in-market mark being then its source's.
 */
export const HELD = 4;

/** Row j of a decoded block as a ranking row's scores and marks. */
export function rowOf(b: DecodedBlock, j: number): Omit<RankingRow, 'pos' | 'store_id'> {
  const sd = b.logitSd[j];
  return {
    score: b.score[j],
    logit: b.logit[j],
    logit_sd: Number.isNaN(sd) ? null : sd,
    in_market: b.flags[j] & IN_MARKET ? 1 : 0,
    explore: b.flags[j] & EXPLORE ? 1 : 0,
    model_version: b.modelVersion[j],
  };
}

/** True on a little-endian machine: a typed array's bytes are then the stored form as they are. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The rows of a block packed as its table row holds them. */
export function encodeBlock(r: DecodedBlock): BlockColumns {
  return {
    store_ids: JSON.stringify(r.storeIds),
    scores: littleEndian(r.score),
    logits: littleEndian(r.logit),
    logit_sds: littleEndian(r.logitSd),
    model_versions: littleEndian(r.modelVersion),
    flags: Buffer.from(r.flags.buffer, r.flags.byteOffset, r.flags.byteLength),
  };
}

/** The bytes of a column, little-endian (its own buffer's, on a little-endian machine). */
function littleEndian(a: Float64Array | Int32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const out = Buffer.allocUnsafe(a.byteLength);
  for (let j = 0; j < a.length; j++) {
    if (a instanceof Float64Array) out.writeDoubleLE(a[j], 8 * j);
    else out.writeInt32LE(a[j], 4 * j);
  }
  return out;
}

/** A packed column's first n values (a copy: the stored bytes need not be aligned for a typed array over them). */
function column<T extends Float64Array | Int32Array>(b: Uint8Array, n: number, Of: { new (buffer: ArrayBuffer): T; new (length: number): T; BYTES_PER_ELEMENT: number }, read: (buf: Buffer, offset: number) => number): T {
  const buf = bytes(b);
  const size = Of.BYTES_PER_ELEMENT;
  if (LITTLE_ENDIAN) return new Of(Uint8Array.prototype.slice.call(buf, 0, size * n).buffer as ArrayBuffer);
  const out = new Of(n);
  for (let j = 0; j < n; j++) out[j] = read(buf, size * j);
  return out;
}

const floats = (b: Uint8Array, n: number) => column(b, n, Float64Array, (buf, at) => buf.readDoubleLE(at));
const ints = (b: Uint8Array, n: number) => column(b, n, Int32Array, (buf, at) => buf.readInt32LE(at));

export function decodeBlock(c: BlockColumns): DecodedBlock {
  const storeIds = JSON.parse(c.store_ids) as string[];
  const n = storeIds.length;
  return { storeIds, score: floats(c.scores, n), logit: floats(c.logits, n), logitSd: floats(c.logit_sds, n), modelVersion: ints(c.model_versions, n), flags: Uint8Array.from(bytes(c.flags)) };
}

/**
 * SQL: the columns of a ranking row read from its block (aliased `k`) at the position `pos`
 * (an SQL integer, e.g. accounts/positions.ts positionSql): what a ranking row's columns were.
 */
export function rowFromBlockSql(pos: RawBuilder<number | null>): RawBuilder<unknown> {
  const j = sql`(${pos} - 1) % ${sql.lit(BLOCK_ROWS)}`;
  const flags = valueAtSql('u8_at', 'flags', 1, j);
  return sql`${valueAtSql('f64_at', 'scores', 8, j)} as score, ${valueAtSql('f64_at', 'logits', 8, j)} as logit, ${valueAtSql('f64_at', 'logit_sds', 8, j)} as logit_sd,
    ${flags} & 1 as in_market, (${flags} & 2) / 2 as explore, ${valueAtSql('i32_at', 'model_versions', 4, j)} as model_version`;
}

/**
 * SQL: the value of packed column `column` (`size` bytes a value) of the block aliased `k` at row
 * index `j` (an SQL integer), read by `fn` (db/binary.ts). The value's own bytes are cut out first
 * (substr counts a blob's bytes, from 1), so the function is handed them, not the whole column.
 */
export function valueAtSql(fn: 'f64_at' | 'i32_at' | 'u8_at', column: string, size: number, j: RawBuilder<unknown>): RawBuilder<number | null> {
  return sql<number | null>`${sql.raw(fn)}(substr(k.${sql.raw(column)}, ${sql.lit(size)} * (${j}) + 1, ${sql.lit(size)}), 0)`;
}

/** SQL: the conditions that pick, as `k`, the block of version `version` of the workspace holding position `pos` (SQL integers). */
export function blockOfSql(workspaceId: string, version: RawBuilder<unknown>, pos: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`k.workspace_id = ${workspaceId} and k.version = ${version} and k.block = (${pos} - 1) / ${sql.lit(BLOCK_ROWS)}`;
}
