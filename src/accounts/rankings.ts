/**
 * Ranking versions. A workspace's ranking is written as a whole new version beside the current
 * one — in short transactions (RANKING_CHUNK details rows, BLOCKS_PART blocks of rows), so no
 * reader or writer waits long behind it — and becomes current in one small transaction (with
 * whatever the caller writes there: events, the model). Rows of a version never change, so a page
 * reads one version and a cursor issued on version v keeps walking v while v is kept: the current
 * version, and each superseded one for RANKING_RETENTION_MS after it was superseded, as long as
 * the superseded versions kept add up to at most MAX_SUPERSEDED_ROWS rows (an older cursor answers
 * 400 and the walk starts again).
 *
 * A version's rows are kept by position (1 = the best score; ties by store_id) in blocks of
 * BLOCK_ROWS positions, each column packed (accounts/blocks.ts): a million accounts are about four
 * thousand rows, written front to back and deleted as few. A version's position buckets find a
 * store's position (accounts/positions.ts: at most 8,192 rows a version, not one per store). What
 * a row shows beyond its score (domain, country, evidence, recent signals) lives in
 * ranking_details by generation: a refit on new labels writes new scores over the same
 * generation; new data writes a new one. The operator's state of an account (status, delivery
 * marks) is the accounts table's, and is current whatever version a page reads. Reading a version: accounts/ranking-reads.ts.
 */
import { type Kysely, sql } from 'kysely';
import type { AccountStatus } from './statuses.js';
import type { Db } from '../db/database.js';
import { lockRows } from '../db/locks.js';
import { analyze, runBulk, statisticsCover } from '../db/prepared.js';
import type { Database } from '../db/database.js';
import type { RankingDetailsTable } from './tables.js';
import { positionBuckets } from './positions.js';
import { BLOCK_ROWS, type DecodedBlock, encodeBlock } from './blocks.js';

export const RANKING_RETENTION_MS = 60 * 60 * 1000;
/**
 * Rows of superseded versions kept per workspace, however recent (bounds the storage of frequent
 * refits): the newest superseded versions are kept while their rows add up to at most this,
 * and the newest one always.
 */
export const MAX_SUPERSEDED_ROWS = 2_000_000;
/** Details rows per write transaction of a ranking. */
const RANKING_CHUNK = 4_000;
/** Blocks of rows (accounts/blocks.ts, about 10 kB each) per write transaction of a ranking. */
const BLOCKS_PART = 128;
/** Position buckets per write transaction (each about 2.6 kB at a million accounts). */
const BUCKETS_PART = 512;
/** The pause between two parts of a ranking write. */
const PART_GAP_MS = 1;
/**
 * A version of at least this many rows has PostgreSQL read its tables' statistics again once it is
 * current (db/prepared.ts analyze); so does a smaller one while the statistics describe fewer than
 * ten times its rows (a new installation's first workspaces: the planner would take their tables
 * for empty and join them row by row, 3-16 ms for a page of 500 accounts that takes 0.03 ms after).
 */
const ANALYZE_ROWS = 1_000;
/** A version still `writing` after this long was abandoned by its writer (a crash): it is deleted. */
const ABANDONED_MS = 30 * 60 * 1000;

/** One account's place in a ranking. */
export interface RankedRow {
  store_id: string;
  score: number;
  logit: number;
  /** The posterior standard deviation of the logit (null: unknown, as for an imported score). */
  logit_sd: number | null;
  in_market: boolean;
  explore: boolean;
  /** Listed by its source but held out of the list by its status (accounts/blocks.ts HELD; default false). */
  held?: boolean;
  model_version: number;
  /** Its place in the ranking (0 first), when the writer orders the rows itself; else by score. */
  rank?: number;
}

/** What a row shows beyond its score; evidence and signals as JSON text. */
export type DetailRow = Omit<RankingDetailsTable, 'workspace_id' | 'gen'>;

/** Runs fn in a write: db.write for a ranking written in parts, or fn(trx) inside the caller's transaction. */
export type Run = <T>(fn: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
export const inWrites = (db: Db): Run => (fn) => db.write(fn);
export const inTransaction = (trx: Kysely<Database>): Run => (fn) => fn(trx);

/**
 * Every row of a version as columns (a refresh's, accounts/refresh.ts): index k is the k-th store
 * in store_id order; `order[p]` is the row at position p + 1.
 */
export interface RankedColumns {
  storeIds: readonly string[];
  score: Float64Array;
  logit: Float64Array;
  /** NaN: unknown (null in the row). */
  logitSd: Float64Array;
  inMarket: Uint8Array;
  explore: Uint8Array;
  /** 1: held out of the list by its status (accounts/blocks.ts HELD); absent: none is. */
  held?: Uint8Array;
  modelVersion: Int32Array;
  order: Uint32Array;
}

export interface RankingWrite {
  /** Every row of the new version (any order: the version is the ranking order), or the same as columns. */
  rows: readonly RankedRow[] | RankedColumns;
  /**
   * A new generation of details (any order), or made one at a time in store_id order (`at(i)`, a
   * part at a time: a million accounts' evidence is never in memory at once). Without it the
   * version shows the current version's.
   */
  details?: readonly DetailRow[] | DetailSource;
  /** With details: the stores they leave out keep their details of the current version (an import). */
  carryDetails?: boolean;
  /** Status of accounts new to the workspace (by store_id; default open). */
  statuses?: ReadonlyMap<string, AccountStatus>;
  /** The version the rows were computed from: the new one becomes current only if this still is. */
  basedOn?: number;
  /**
   * The workspace's status_seq read before the statuses the rows' in-market marks apply: recorded
   * with the version, which becomes current only if no status was decided since (the workspace
   * row's lock orders the flip with a status decision, accounts/store.ts setAccountStatus).
   */
  statusSeq?: number;
  /** More writes in the transaction that makes the version current. */
  onCurrent?: (trx: Kysely<Database>, version: number) => Promise<void>;
  /** Stops the write between two parts (a Ctrl-C of `accounts import`): the version is taken back, none becomes current. */
  signal?: AbortSignal;
  now: Date;
}

/** Details made on demand: `at(i)` is the i-th of `count` stores in store_id order. */
export interface DetailSource {
  count: number;
  at(i: number): DetailRow;
}

/** A version number handed out to a writer, with the details generation it writes or shows. */
export interface NewVersion {
  version: number;
  gen: number;
  /** The version current when it was handed out (null: the workspace had none). */
  current: number | null;
}

/** Hands out the next version number (one small write); `newGen`: the version writes new details. */
export async function startRanking(run: Run, workspaceId: string, newGen: boolean, now: Date): Promise<NewVersion> {
  return run(async (trx) => {
    await trx
      .updateTable('workspaces')
      .set((eb) => ({ ranking_seq: eb('ranking_seq', '+', 1) }))
      .where('id', '=', workspaceId)
      .execute();
    const ws = await trx.selectFrom('workspaces').select('ranking_seq').where('id', '=', workspaceId).executeTakeFirstOrThrow();
    const cur = await trx.selectFrom('ranking_versions').select(['version', 'gen']).where('workspace_id', '=', workspaceId).where('state', '=', 'current').executeTakeFirst();
    const version = ws.ranking_seq;
    const gen = newGen || !cur ? version : cur.gen;
    await trx
      .insertInto('ranking_versions')
      .values({ workspace_id: workspaceId, version, gen, state: 'writing', created_at: now.toISOString(), created_ms: now.getTime(), superseded_ms: null })
      .execute();
    return { version, gen, current: cur?.version ?? null };
  });
}

/**
 * Writes the rows of a version handed out by startRanking and makes it current. False when
 * `basedOn` was no longer current by then (another writer got there first; nothing is kept).
 */
export async function writeRanking(run: Run, workspaceId: string, v: NewVersion, w: RankingWrite): Promise<boolean> {
  const { version, gen, current } = v;
  const c = isColumns(w.rows) ? w.rows : columnsOf(w.rows);
  const n = c.storeIds.length;
  // Each store's position, in store_id order, kept in buckets (accounts/positions.ts).
  const pos = new Int32Array(n);
  for (let p = 0; p < n; p++) pos[c.order[p]] = p + 1;
  const buckets = positionBuckets(c.storeIds, pos);
  let inMarketCount = 0;
  for (let k = 0; k < n; k++) inMarketCount += c.inMarket[k];
  const details: DetailSource = !w.details
    ? { count: 0, at: () => undefined as never }
    : Array.isArray(w.details)
      ? sortedDetails(w.details)
      : (w.details as DetailSource);
  const go = () => w.signal?.throwIfAborted();
  try {
    // A new generation's details, and the accounts they name, RANKING_CHUNK a transaction.
    for (let i = 0; i < details.count; i += RANKING_CHUNK) {
      go();
      await run(async (trx) => {
        const d = Array.from({ length: Math.min(details.count, i + RANKING_CHUNK) - i }, (_, j) => details.at(i + j));
        await insertDetails(trx, workspaceId, gen, d);
        await ensureAccounts(trx, workspaceId, d.map((x) => x.store_id), w.statuses, w.now);
      });
      // A gap between parts, so a writer waiting for the lock (the API's own writes) gets in.
      await new Promise((r) => setTimeout(r, PART_GAP_MS));
    }
    // The rows, in blocks of BLOCK_ROWS positions (accounts/blocks.ts), BLOCKS_PART blocks a transaction.
    const blocks = Math.ceil(n / BLOCK_ROWS);
    for (let b = 0; b < blocks; b += BLOCKS_PART) {
      go();
      await run((trx) => insertBlocks(trx, workspaceId, version, c, b, Math.min(blocks, b + BLOCKS_PART)));
      await new Promise((r) => setTimeout(r, PART_GAP_MS));
    }
    for (let i = 0; i < buckets.length; i += BUCKETS_PART) {
      go();
      await run((trx) => insertBuckets(trx, workspaceId, version, buckets, i, i + BUCKETS_PART));
      await new Promise((r) => setTimeout(r, PART_GAP_MS));
    }
    if (w.details && w.carryDetails && current !== null) await run((trx) => carryDetails(trx, workspaceId, current, gen));
    go();
  } catch (e) {
    await deleteVersion(run, workspaceId, version).catch(() => undefined);
    throw e;
  }
  /** Whether the tables' statistics are read again once the version is current (ANALYZE_ROWS). */
  let analyse = false;
  const made = await run(async (trx) => {
    // The workspace row locked first: two writers' flips run one after the other, and the second sees the first's version.
    // A status decided since the rows were computed is in the row read under the lock (its bump waits for the lock, or was committed before it).
    await lockRows(trx, 'workspaces', { id: workspaceId });
    const ws = await trx.selectFrom('workspaces').select(['ranking_version', 'status_seq']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
    if (w.basedOn !== undefined && ws.ranking_version !== w.basedOn) return false;
    if (w.statusSeq !== undefined && ws.status_seq !== w.statusSeq) return false;
    await trx
      .updateTable('ranking_versions')
      .set({ state: 'superseded', superseded_ms: w.now.getTime() })
      .where('workspace_id', '=', workspaceId)
      .where('state', '=', 'current')
      .execute();
    await trx
      .updateTable('ranking_versions')
      .set({ state: 'current', rows: n, in_market: inMarketCount, status_seq: w.statusSeq ?? null })
      .where('workspace_id', '=', workspaceId)
      .where('version', '=', version)
      .execute();
    await trx
      .updateTable('workspaces')
      .set((eb) => ({ ranking_version: version, accounts_version: eb('accounts_version', '+', 1) }))
      .where('id', '=', workspaceId)
      .execute();
    await w.onCurrent?.(trx, version);
    // Asked here, in a transaction the write makes anyway (SQLite asks nothing).
    analyse = n >= ANALYZE_ROWS || (n > 0 && !(await statisticsCover(trx, 'ranking_details', n)));
    return true;
  });
  if (!made) await deleteVersion(run, workspaceId, version);
  await pruneRankings(run, workspaceId, w.now);
  // Only the tables this write added rows to: a refit writes blocks and buckets, not details or
  // accounts, whose statistics (a sample of up to 30,000 rows each) it would read again for nothing.
  if (made && analyse) await run((trx) => analyze(trx, ['ranking_blocks', 'ranking_position_buckets', ...(details.count > 0 ? ['ranking_details', 'accounts'] : [])]));
  return made;
}

function sortedDetails(rows: readonly DetailRow[]): DetailSource {
  const sorted = [...rows].sort(byStoreId);
  return { count: sorted.length, at: (i) => sorted[i] };
}

const isColumns = (rows: readonly RankedRow[] | RankedColumns): rows is RankedColumns => !Array.isArray(rows);

/** Rows as columns: in store_id order, ranked by their `rank` when every row has one, else by rankingOrder. */
export function columnsOf(rows: readonly RankedRow[]): RankedColumns {
  const inStoreOrder = rows.every((r, k) => k === 0 || rows[k - 1].store_id < r.store_id);
  const source = inStoreOrder ? rows : [...rows].sort(byStoreId);
  const ranks = source.every((r) => r.rank !== undefined);
  const order = Uint32Array.from(source, (_, k) => k).sort((a, b) => (ranks ? source[a].rank! - source[b].rank! : rankingOrder(source[a], source[b])));
  return {
    storeIds: source.map((r) => r.store_id),
    score: Float64Array.from(source, (r) => r.score),
    logit: Float64Array.from(source, (r) => r.logit),
    logitSd: Float64Array.from(source, (r) => r.logit_sd ?? Number.NaN),
    inMarket: Uint8Array.from(source, (r) => (r.in_market ? 1 : 0)),
    explore: Uint8Array.from(source, (r) => (r.explore ? 1 : 0)),
    held: Uint8Array.from(source, (r) => (r.held ? 1 : 0)),
    modelVersion: Int32Array.from(source, (r) => r.model_version),
    order,
  };
}

const byStoreId = (a: { store_id: string }, b: { store_id: string }): number => (a.store_id < b.store_id ? -1 : a.store_id > b.store_id ? 1 : 0);

/** Ranking order when the writer gives no ranks: score descending, then store_id. */
export const rankingOrder = (a: { score: number; store_id: string }, b: { score: number; store_id: string }): number =>
  b.score - a.score || (a.store_id < b.store_id ? -1 : a.store_id > b.store_id ? 1 : 0);

/** Blocks from … to − 1 of the version: its rows at positions from × BLOCK_ROWS + 1 … (accounts/blocks.ts). */
async function insertBlocks(trx: Kysely<Database>, workspaceId: string, version: number, c: RankedColumns, from: number, to: number): Promise<void> {
  const n = c.storeIds.length;
  await runBulk(
    trx,
    {
      table: 'ranking_blocks',
      // A block is BLOCK_ROWS accounts' worth of bytes: as COPY text, a refit's blocks go in at a third of the time they take as bytea arrays.
      copyFrom: 1,
      columns: [['block', 'integer'], ['store_ids', 'text'], ['scores', 'bytea'], ['logits', 'bytea'], ['logit_sds', 'bytea'], ['model_versions', 'bytea'], ['flags', 'bytea']],
      same: [['workspace_id', 'text', workspaceId], ['version', 'integer', version]],
    },
    {
      count: to - from,
      width: 7,
      fill: (i, row) => {
        const first = (from + i) * BLOCK_ROWS;
        const m = Math.min(BLOCK_ROWS, n - first);
        const b: DecodedBlock = { storeIds: new Array<string>(m), score: new Float64Array(m), logit: new Float64Array(m), logitSd: new Float64Array(m), modelVersion: new Int32Array(m), flags: new Uint8Array(m) };
        for (let j = 0; j < m; j++) {
          const k = c.order[first + j];
          b.storeIds[j] = c.storeIds[k];
          b.score[j] = c.score[k];
          b.logit[j] = c.logit[k];
          b.logitSd[j] = c.logitSd[k];
          b.modelVersion[j] = c.modelVersion[k];
          b.flags[j] = c.inMarket[k] | (c.explore[k] << 1) | ((c.held?.[k] ?? 0) << 2);
        }
        const packed = encodeBlock(b);
        row[0] = from + i;
        row[1] = packed.store_ids;
        row[2] = packed.scores;
        row[3] = packed.logits;
        row[4] = packed.logit_sds;
        row[5] = packed.model_versions;
        row[6] = packed.flags;
      },
    },
  );
}

/** Buckets of positions (accounts/positions.ts) from … to − 1 of the version's. */
async function insertBuckets(trx: Kysely<Database>, workspaceId: string, version: number, buckets: readonly { bucket: number; entries: string }[], from: number, to: number): Promise<void> {
  await runBulk(
    trx,
    {
      table: 'ranking_position_buckets',
      columns: [['bucket', 'integer'], ['entries', 'text']],
      same: [['workspace_id', 'text', workspaceId], ['version', 'integer', version]],
    },
    {
      count: Math.max(0, Math.min(to, buckets.length) - from),
      width: 2,
      fill: (i, row) => {
        row[0] = buckets[from + i].bucket;
        row[1] = buckets[from + i].entries;
      },
    },
  );
}

async function insertDetails(trx: Kysely<Database>, workspaceId: string, gen: number, rows: readonly DetailRow[]): Promise<void> {
  await runBulk(
    trx,
    {
      table: 'ranking_details',
      columns: [['store_id', 'text'], ['domain', 'text'], ['country', 'text'], ['category', 'text'], ['plan', 'text'], ['evidence', 'text'], ['signals', 'text']],
      same: [['workspace_id', 'text', workspaceId], ['gen', 'integer', gen]],
    },
    {
      count: rows.length,
      width: 7,
      fill: (i, row) => {
        const d = rows[i];
        row[0] = d.store_id;
        row[1] = d.domain;
        row[2] = d.country;
        row[3] = d.category;
        row[4] = d.plan;
        row[5] = d.evidence;
        row[6] = d.signals;
      },
    },
  );
}

/** Every ranked store has an accounts row (its operator state); existing rows keep theirs. */
async function ensureAccounts(trx: Kysely<Database>, workspaceId: string, storeIds: readonly string[], statuses: ReadonlyMap<string, AccountStatus> | undefined, now: Date): Promise<void> {
  await runBulk(
    trx,
    {
      table: 'accounts',
      columns: [['store_id', 'text'], ['status', 'text']],
      same: [['workspace_id', 'text', workspaceId], ['updated_at', 'text', now.toISOString()]],
      conflict: 'on conflict (workspace_id, store_id) do nothing',
    },
    {
      count: storeIds.length,
      width: 2,
      fill: (i, row) => {
        row[0] = storeIds[i];
        row[1] = statuses?.get(storeIds[i]) ?? 'open';
      },
    },
  );
}

/** The details of version `from`'s generation that the new generation does not have yet. */
async function carryDetails(trx: Kysely<Database>, workspaceId: string, from: number, gen: number): Promise<void> {
  const fromGen = await trx.selectFrom('ranking_versions').select('gen').where('workspace_id', '=', workspaceId).where('version', '=', from).executeTakeFirstOrThrow();
  if (fromGen.gen === gen) return;
  // One scan of the old generation, each row skipped by the key's index where the new one has it
  // (not an anti-join, whose plan depends on statistics the new rows do not have yet).
  await sql`insert into ranking_details (workspace_id, gen, store_id, domain, country, category, plan, evidence, signals)
    select o.workspace_id, ${gen}, o.store_id, o.domain, o.country, o.category, o.plan, o.evidence, o.signals from ranking_details o
    where o.workspace_id = ${workspaceId} and o.gen = ${fromGen.gen}
    on conflict do nothing`.execute(trx);
}

/**
 * Deletes what no cursor may walk any more: versions superseded over RANKING_RETENTION_MS ago,
 * or beyond the MAX_SUPERSEDED_ROWS of the latest; versions a crashed writer left; details no kept version
 * shows. In parts, like the writes.
 */
export async function pruneRankings(run: Run, workspaceId: string, now: Date): Promise<void> {
  const versions = await run((trx) =>
    trx.selectFrom('ranking_versions').select(['version', 'state', 'rows', 'created_ms', 'superseded_ms']).where('workspace_id', '=', workspaceId).orderBy('superseded_ms', 'desc').execute(),
  );
  let kept = 0;
  const expired = [
    ...versions.filter((v) => {
      if (v.state !== 'superseded') return false;
      kept += Number(v.rows);
      return (kept > MAX_SUPERSEDED_ROWS && kept > Number(v.rows)) || Number(v.superseded_ms) < now.getTime() - RANKING_RETENTION_MS;
    }),
    ...versions.filter((v) => (v.state === 'writing' && Number(v.created_ms) < now.getTime() - ABANDONED_MS) || v.state === 'deleting'),
  ];
  for (const v of expired) await deleteVersion(run, workspaceId, v.version);
  await run((trx) => pruneModelWeights(trx, workspaceId));
  if (expired.length === 0) return;
  for (;;) {
    const deleted = await run(async (trx) => {
      const r = await sql`delete from ranking_details where workspace_id = ${workspaceId} and (gen, store_id) in (
        select d.gen, d.store_id from ranking_details d
        where d.workspace_id = ${workspaceId} and d.gen not in (select gen from ranking_versions where workspace_id = ${workspaceId})
        limit ${RANKING_CHUNK})`.execute(trx);
      return Number(r.numAffectedRows ?? 0);
    });
    if (deleted < RANKING_CHUNK) break;
  }
}

/**
 * Deletes the weights of the models no kept version shows. A row's evidence is weighed with its
 * model version's weights when it is read (accounts/evidence.ts), so a version kept for a cursor
 * needs them as long as it is kept: a version shows the model fitted with it (written at its time)
 * and rows it carried from the versions before it (an import), so the weights kept are those of the
 * newest model written by the time the oldest kept version was, and of every later one. (Kept for an
 * hour after they were written, a model's weights went while a version scored with them, superseded
 * later, was still walked: its rows came without contributions.)
 */
async function pruneModelWeights(trx: Kysely<Database>, workspaceId: string): Promise<void> {
  await sql`delete from model_weights where workspace_id = ${workspaceId} and version < (
    select max(m.version) from model_weights m where m.workspace_id = ${workspaceId} and m.created_ms <= (
      select min(v.created_ms) from ranking_versions v where v.workspace_id = ${workspaceId} and v.state in ('current', 'superseded')))`.execute(trx);
}

/** Deletes a version's blocks a part at a time (BLOCKS_PART a transaction), then its position buckets. */
async function deleteVersion(run: Run, workspaceId: string, version: number): Promise<void> {
  await run((trx) => trx.updateTable('ranking_versions').set({ state: 'deleting' }).where('workspace_id', '=', workspaceId).where('version', '=', version).execute());
  const last = await run((trx) =>
    trx.selectFrom('ranking_blocks').select((eb) => eb.fn.max('block').as('block')).where('workspace_id', '=', workspaceId).where('version', '=', version).executeTakeFirst(),
  );
  const lastBlock = last?.block === null || last?.block === undefined ? -1 : Number(last.block);
  for (let b = 0; b <= lastBlock; b += BLOCKS_PART) {
    const from = b;
    await run((trx) =>
      trx.deleteFrom('ranking_blocks').where('workspace_id', '=', workspaceId).where('version', '=', version).where('block', '>=', from).where('block', '<', from + BLOCKS_PART).execute(),
    );
  }
  await run((trx) => trx.deleteFrom('ranking_position_buckets').where('workspace_id', '=', workspaceId).where('version', '=', version).execute());
  await run((trx) => trx.deleteFrom('ranking_versions').where('workspace_id', '=', workspaceId).where('version', '=', version).execute());
}
