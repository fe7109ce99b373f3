/**
 * Where each store is in a ranking version (accounts/rankings.ts), kept as POSITION_BUCKETS
 * rows per version rather than a row per store: a store's bucket is a hash of its id, and a
 * bucket's `entries` is the text of its stores with their positions, each one
 * `US id RS position` (US, RS: the unit and record separators; the id escaped so it holds
 * neither; the position in POS_DIGITS zero-padded digits). A refit writes a few thousand rows of
 * positions instead of one per account; a lookup reads one bucket and finds the store in it by
 * `instr` (SQLite's; a PostgreSQL function of that name over `strpos`, migration 0028), in SQL,
 * so the joins that read one store of the current version stay one statement.
 */
import { type RawBuilder, sql } from 'kysely';

/** Buckets of a version (a version of fewer stores writes only the buckets it fills). */
export const POSITION_BUCKETS = 8192;
/** Digits of a position in an entry (positionSql's 10). */
const POS_DIGITS = 10;

const US = '\x1f';
const RS = '\x1e';
const ESC = '\x1d';

/** A store id with the separators (and the escape) escaped. */
const escaped = (id: string): string => (/[\x1d-\x1f]/.test(id) ? id.replace(/[\x1d-\x1f]/g, (c) => ESC + String.fromCharCode(0x30 + c.charCodeAt(0) - 0x1d)) : id);

/** The bucket of a store id: FNV-1a over its UTF-16 code units, modulo POSITION_BUCKETS (fixed: stored buckets depend on it). */
export function bucketOf(storeId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < storeId.length; i++) {
    h ^= storeId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % POSITION_BUCKETS;
}

/** What a store's entry starts with: found only at its own entry. */
export const needleOf = (storeId: string): string => US + escaped(storeId) + RS;

/**
 * Stores grouped by bucket: `stores[starts[b]] … stores[starts[b + 1] − 1]` are bucket b's
 * (indices into the ids), and `text` every bucket's entries one after the other as UTF-16 code
 * units (two bytes each, so any id, whatever its characters, keeps its place), the positions left
 * as zeros: store k's digits are the units from `digits[k]` and bucket b's entries the units
 * `textStarts[b]` … `textStarts[b + 1] − 1`, so a version only writes its positions' digits in and
 * cuts each bucket's text out.
 */
interface BucketGroups {
  stores: Uint32Array;
  starts: Uint32Array;
  text: Buffer;
  digits: Uint32Array;
  textStarts: Uint32Array;
}

/** Per array of store ids, its groups: a refit of the same stores (the same array, accounts/refresh.ts) groups them once. */
const groupsOf = new WeakMap<readonly string[], BucketGroups>();

function bucketGroups(storeIds: readonly string[]): BucketGroups {
  const hit = groupsOf.get(storeIds);
  if (hit) return hit;
  const n = storeIds.length;
  const bucket = new Uint32Array(n);
  const starts = new Uint32Array(POSITION_BUCKETS + 1);
  for (let k = 0; k < n; k++) starts[(bucket[k] = bucketOf(storeIds[k])) + 1]++;
  for (let b = 0; b < POSITION_BUCKETS; b++) starts[b + 1] += starts[b];
  const stores = new Uint32Array(n);
  const at = starts.slice(0, POSITION_BUCKETS);
  for (let k = 0; k < n; k++) stores[at[bucket[k]]++] = k;
  // Every bucket's entries, the positions zeros: the text joined once, then copied in one call.
  const zeros = '0'.repeat(POS_DIGITS);
  const parts = new Array<string>(2 * n);
  const digits = new Uint32Array(n);
  const textStarts = new Uint32Array(POSITION_BUCKETS + 1);
  let units = 0;
  for (let b = 0; b < POSITION_BUCKETS; b++) {
    textStarts[b] = units;
    for (let i = starts[b]; i < starts[b + 1]; i++) {
      const k = stores[i];
      const needle = needleOf(storeIds[k]);
      parts[2 * i] = needle;
      parts[2 * i + 1] = zeros;
      units += needle.length;
      digits[k] = units;
      units += POS_DIGITS;
    }
  }
  textStarts[POSITION_BUCKETS] = units;
  const made = { stores, starts, text: Buffer.from(parts.join(''), 'utf16le'), digits, textStarts };
  groupsOf.set(storeIds, made);
  return made;
}

/** The entries of every bucket a version fills: `pos[k]` is the position (1 = first) of `storeIds[k]`. */
export function positionBuckets(storeIds: readonly string[], pos: Int32Array): { bucket: number; entries: string }[] {
  const { starts, text, digits, textStarts } = bucketGroups(storeIds);
  // The digits written into the text (a digit's unit: its ASCII byte, then 0), then each bucket's text cut out (no string an entry).
  for (let k = 0; k < pos.length; k++) {
    let v = pos[k];
    for (let d = digits[k] + POS_DIGITS - 1; d >= digits[k]; d--) {
      text[2 * d] = 0x30 + (v % 10);
      v = Math.floor(v / 10);
    }
  }
  const out: { bucket: number; entries: string }[] = [];
  for (let b = 0; b < POSITION_BUCKETS; b++) if (starts[b] !== starts[b + 1]) out.push({ bucket: b, entries: text.toString('utf16le', 2 * textStarts[b], 2 * textStarts[b + 1]) });
  return out;
}

/** The position of a store in a bucket's entries (read into JS), or undefined. */
export function positionIn(entries: string, storeId: string): number | undefined {
  const needle = needleOf(storeId);
  const at = entries.indexOf(needle);
  return at < 0 ? undefined : Number(entries.slice(at + needle.length, at + needle.length + POS_DIGITS));
}

/**
 * SQL: the store's position in the entries of the bucket row aliased `b` (null when the bucket
 * has no such store). Join b on `b.bucket = ${bucketOf(storeId)}`. One flat fragment (it is
 * compiled on every request that reads one account).
 */
export function positionSql(storeId: string): RawBuilder<number | null> {
  const needle = needleOf(storeId);
  // The offset in characters (SQLite's and PostgreSQL's instr and substr count characters, not UTF-16 units).
  const skip = /[\uD800-\uDFFF]/.test(needle) ? Array.from(needle).length : needle.length;
  return sql<number | null>`(case when instr(b.entries, ${needle}) > 0 then cast(substr(b.entries, instr(b.entries, ${needle}) + ${skip}, 10) as integer) end)`;
}

/** SQL: the workspace's current ranking version, a scalar subquery (see currentPositionSql). */
export function currentVersionSql(workspaceId: string): RawBuilder<number> {
  return sql<number>`(select ranking_version from workspaces where id = ${workspaceId})`;
}

/**
 * SQL: the store's position in the workspace's current ranking version (null when the version
 * does not hold it), a scalar subquery. It and currentVersionSql refer to no table of the
 * statement around them, so PostgreSQL runs each once, first (an InitPlan), and the bucket, then
 * the block (accounts/blocks.ts blockOfSql), are found by the whole of their keys whatever its
 * statistics say. Joined instead on the workspace row and on a bucket row of the statement, they
 * are values of other tables, which a planner that takes the tables for small (no statistics yet:
 * a workspace of fewer than 1,000 accounts, until autovacuum analyses them) may leave out of the
 * index scans: it then reads every bucket and every row of the workspace's kept versions and
 * tests the position on each.
 */
export function currentPositionSql(workspaceId: string, storeId: string): RawBuilder<number | null> {
  return sql<number | null>`(select ${positionSql(storeId)} from ranking_position_buckets b
      where b.workspace_id = ${workspaceId} and b.version = ${currentVersionSql(workspaceId)} and b.bucket = ${bucketOf(storeId)})`;
}
