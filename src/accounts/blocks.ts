/**
 * A ranking version's rows kept as blocks (accounts/rankings.ts writes them, accounts/ranking-reads.ts
 * reads them): block b holds the rows at positions b × BLOCK_ROWS + 1 … (b + 1) × BLOCK_ROWS, each
 * column packed — the store ids as a JSON array, the scores, logits and logit sds as 64-bit floats,
 * the model versions as 32-bit integers and the list marks as a byte (bit 0 in market, bit 1
 * explore), all little-endian. A refit of a million accounts writes about a thousand rows, not a
 * million, and deleting a version deletes as few.
 *
 * SQL reads one row of a block through three functions of (column, row index in the block):
 * `f64_at` (null for NaN: a logit sd not known), `i32_at` and `u8_at` (db/binary.ts) — so the
 * statements that read one store of the current version (the account's row, the row an outcome
 * keeps) stay one statement.
 */
import { type RawBuilder, sql } from 'kysely';

/** Rows of a block (fixed: stored blocks depend on it). */
export const BLOCK_ROWS = 1024;

/** A block as a table row holds it. */
export interface BlockColumns {
  store_ids: string;
  scores: Uint8Array;
  logits: Uint8Array;
  logit_sds: Uint8Array;
  model_versions: Uint8Array;
  flags: Uint8Array;
}

/** A block's rows decoded, index j the row at position block × BLOCK_ROWS + j + 1. */
export interface DecodedBlock {
  storeIds: string[];
  score: Float64Array;
  logit: Float64Array;
  /** NaN: unknown (null in a row). */
  logitSd: Float64Array;
  modelVersion: Int32Array;
  /** Bit 0: in market; bit 1: explore. */
  flags: Uint8Array;
}

export const IN_MARKET = 1;
export const EXPLORE = 2;

/** The rows of one block, made by `row(j, into)` for j in 0 … count − 1. */
export interface BlockSource {
  count: number;
  storeId(j: number): string;
  score(j: number): number;
  logit(j: number): number;
  logitSd(j: number): number;
  modelVersion(j: number): number;
  flags(j: number): number;
}

export function encodeBlock(s: BlockSource): BlockColumns {
  const n = s.count;
  const ids = new Array<string>(n);
  const f = Buffer.allocUnsafe(3 * 8 * n);
  const mv = Buffer.allocUnsafe(4 * n);
  const flags = Buffer.allocUnsafe(n);
  for (let j = 0; j < n; j++) {
    ids[j] = s.storeId(j);
    f.writeDoubleLE(s.score(j), 8 * j);
    f.writeDoubleLE(s.logit(j), 8 * (n + j));
    f.writeDoubleLE(s.logitSd(j), 8 * (2 * n + j));
    mv.writeInt32LE(s.modelVersion(j), 4 * j);
    flags[j] = s.flags(j);
  }
  return {
    store_ids: JSON.stringify(ids),
    scores: f.subarray(0, 8 * n),
    logits: f.subarray(8 * n, 16 * n),
    logit_sds: f.subarray(16 * n, 24 * n),
    model_versions: mv,
    flags,
  };
}

const bytes = (b: Uint8Array): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

function floats(b: Uint8Array, n: number): Float64Array {
  const buf = bytes(b);
  const out = new Float64Array(n);
  for (let j = 0; j < n; j++) out[j] = buf.readDoubleLE(8 * j);
  return out;
}

export function decodeBlock(c: BlockColumns): DecodedBlock {
  const storeIds = JSON.parse(c.store_ids) as string[];
  const n = storeIds.length;
  const mv = bytes(c.model_versions);
  const modelVersion = new Int32Array(n);
  for (let j = 0; j < n; j++) modelVersion[j] = mv.readInt32LE(4 * j);
  return { storeIds, score: floats(c.scores, n), logit: floats(c.logits, n), logitSd: floats(c.logit_sds, n), modelVersion, flags: Uint8Array.from(bytes(c.flags)) };
}

/**
 * SQL: the columns of a ranking row read from its block (aliased `k`) at the position `pos`
 * (an SQL integer, e.g. accounts/positions.ts positionSql): what a ranking row's columns were.
 */
export function rowFromBlockSql(pos: RawBuilder<number | null>): RawBuilder<unknown> {
  const j = sql`(${pos} - 1) % ${sql.lit(BLOCK_ROWS)}`;
  return sql`f64_at(k.scores, ${j}) as score, f64_at(k.logits, ${j}) as logit, f64_at(k.logit_sds, ${j}) as logit_sd,
    u8_at(k.flags, ${j}) & 1 as in_market, (u8_at(k.flags, ${j}) & 2) / 2 as explore, i32_at(k.model_versions, ${j}) as model_version`;
}

/** SQL: the join condition of the block (aliased `k`) holding position `pos` of the version current in workspaces `w`. */
export function blockOfSql(pos: RawBuilder<number | null>): RawBuilder<unknown> {
  return sql`k.workspace_id = w.id and k.version = w.ranking_version and k.block = (${pos} - 1) / ${sql.lit(BLOCK_ROWS)}`;
}
