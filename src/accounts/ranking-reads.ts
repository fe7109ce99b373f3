/**
 * Reading ranking versions (accounts/rankings.ts writes them): a page of a version in its order
 * with the page's filters, one account of the current version, the current version's head and
 * rows, and what the watches ask of it (its in-market accounts, which stores it holds). A page
 * reads the version's head, then the blocks it needs (accounts/blocks.ts) decoded (kept per process,
 * accounts/block-cache.ts), then the details of the rows it shows; one account's row is read from
 * its block in SQL. The hot reads are plain SQL through prepared() (db/prepared.ts).
 */
import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import type { AccountStatus } from './statuses.js';
import type { SignalType } from '../core/signals.js';
import { prepared } from '../db/prepared.js';
import { bucketOf, currentPositionSql, currentVersionSql, positionIn } from './positions.js';
import { blockKey, cachedBlock, cachedHead, forgetHead, keepBlock, keepHead, versionKey, type VersionHead } from './block-cache.js';
import { BLOCK_ROWS, blockOfSql, type DecodedBlock, decodeBlock, HELD, IN_MARKET, rowFromBlockSql, rowOf } from './blocks.js';
import { rankingOrder } from './rankings.js';
import type { Database } from '../db/database.js';
import type { AccountsTable, RankingBlocksTable, RankingDetailsTable, RankingRow } from './tables.js';

/** True when version v of the workspace's ranking can still be walked. */
export async function rankingRetained(q: Kysely<Database>, workspaceId: string, version: number): Promise<boolean> {
  const row = await q
    .selectFrom('ranking_versions')
    .select('state')
    .where('workspace_id', '=', workspaceId)
    .where('version', '=', version)
    .where('state', 'in', ['current', 'superseded'])
    .executeTakeFirst();
  return row !== undefined;
}

/** Narrowing filters of a ranking page (all optional; they combine with AND). */
export interface AccountFilters {
  minScore?: number;
  country?: string;
  category?: string;
  plan?: string;
  status?: AccountStatus;
  /** Only accounts with a signal of this type (in or after signalsSince when given). */
  signalType?: SignalType;
  /** Only accounts with a signal (of signalType when given) in this month (YYYY-MM) or later. */
  signalsSince?: string;
}

export interface PageQuery extends AccountFilters {
  inMarketOnly: boolean;
  /** Position in the version after which the page starts (exclusive). */
  afterPos?: number;
  limit: number;
}

/** An account row as a page (or the detail) reads it: its ranking row, its details and its account's status. */
export type PageRow = RankingRow &
  Pick<RankingDetailsTable, 'domain' | 'country' | 'category' | 'plan' | 'evidence' | 'signals'> &
  Pick<Selectable<AccountsTable>, 'status' | 'delivered_to_agent'> & {
    /** When the row's ranking version was written. */
    updated_at: string;
  };

/** What a page reads of a row beyond its block: its details and its account's state. */
type DetailPart = Pick<PageRow, 'store_id' | 'domain' | 'country' | 'category' | 'plan' | 'evidence' | 'signals' | 'status' | 'delivered_to_agent'>;

/** Blocks a page reads at first; each further read takes twice as many, up to MAX_BLOCKS_READ. */
const MAX_BLOCKS_READ = 32;
/** Store ids one details statement asks for, padded with nulls up to the first of these that fits (a few statement texts, each prepared once). */
const DETAIL_BATCHES = [64, 256, 1024, 4096] as const;

/**
 * One page of ranking `version` (score desc, store_id asc: its positions in order): its blocks
 * read in position order (accounts/blocks.ts), the list and score filters applied to them, then
 * the details and account state of the rows that pass, with the other filters, a batch at a time.
 *
 * The version's head (its details generation, when it was written, its rows, its state) is read
 * first, unless this process read it before as current or superseded and keeps the blocks the page
 * starts with (accounts/block-cache.ts): then the page's first details statement reads the head
 * too, and the page is read again the first way if the head is not the one remembered (the version
 * being deleted, or gone). A page that misses the read cache is then one statement.
 */
export async function pageRanking(q: Kysely<Database>, workspaceId: string, version: number, p: PageQuery): Promise<PageRow[]> {
  const key = versionKey(q, workspaceId, version);
  const remembered = cachedHead(key);
  if (remembered) {
    const page = await readPage(q, workspaceId, version, p, key, remembered, 'unchecked');
    if (page !== undefined) return page;
    forgetHead(key);
  }
  const head = await prepared(
    q,
    sql<{ gen: number; created_at: string; rows: number; state: string }>`
    select v.gen, v.created_at, v.rows, v.state from ranking_versions v where v.workspace_id = ${workspaceId} and v.version = ${version}`,
  );
  if (head.length === 0) return [];
  const h = { gen: Number(head[0].gen), createdAt: head[0].created_at, rows: Number(head[0].rows) };
  // Blocks of a version that is current or superseded are whole and never change: kept decoded
  // per process (accounts/block-cache.ts). Those of one being written or deleted are read as they are.
  const keeps = head[0].state === 'current' || head[0].state === 'superseded';
  if (keeps) keepHead(key, h);
  return (await readPage(q, workspaceId, version, p, key, h, keeps ? 'kept' : 'read'))!;
}

/**
 * The page of pageRanking over the version whose head is `head`: 'kept' and 'read', its state
 * read (its blocks kept decoded, or read as they are); 'unchecked', a head remembered, checked by
 * the first details statement (undefined when it is not the version's head now, or when the
 * page would need a statement before that one: its blocks not all kept).
 */
async function readPage(q: Kysely<Database>, workspaceId: string, version: number, p: PageQuery, key: string, head: VersionHead, mode: 'kept' | 'read' | 'unchecked'): Promise<PageRow[] | undefined> {
  const out: PageRow[] = [];
  const after = p.afterPos ?? 0;
  let next = Math.floor(after / BLOCK_ROWS);
  // The first blocks read: those a page without filters reads.
  let want = Math.min(MAX_BLOCKS_READ, Math.floor((after + Math.min(p.limit, BLOCK_ROWS * MAX_BLOCKS_READ) - 1) / BLOCK_ROWS) + 1 - next);
  const { gen, createdAt } = head;
  const blocks = Math.ceil(head.rows / BLOCK_ROWS);
  const stamp = String(createdAt);
  let unchecked = mode === 'unchecked';
  /** Blocks from … to (exclusive) of the version, decoded: from the cache when all of them are there, else read (undefined: not all kept, the head unchecked). */
  const readBlocks = async (from: number, to: number): Promise<{ b: DecodedBlock; base: number }[] | undefined> => {
    if (mode !== 'read') {
      const hits: { b: DecodedBlock; base: number }[] = [];
      for (let k = from; k < Math.min(to, blocks); k++) {
        const b = cachedBlock(blockKey(key, k), stamp);
        if (b === undefined) break;
        hits.push({ b, base: k * BLOCK_ROWS });
      }
      if (hits.length === Math.max(0, Math.min(to, blocks) - from)) return hits;
    }
    if (unchecked) return undefined;
    const rows = await prepared(
      q,
      sql<Selectable<RankingBlocksTable>>`select ${BLOCK_COLUMNS} from ranking_blocks k
      where k.workspace_id = ${workspaceId} and k.version = ${version} and k.block >= ${from} and k.block < ${to} order by k.block`,
    );
    return rows.map((r) => {
      const b = decodeBlock(r);
      if (mode === 'kept') keepBlock(blockKey(key, Number(r.block)), stamp, b);
      return { b, base: Number(r.block) * BLOCK_ROWS };
    });
  };
  let read = await readBlocks(next, next + want);
  if (read === undefined) return undefined;
  const details = detailsFilter(p);
  let asked = 0;
  let passed = 0;
  // The blocks read and not yet walked, and where the walk is in the first of them.
  const pending: { b: DecodedBlock; base: number }[] = [];
  let j = 0;
  /** The next `count` rows the list and score filters pass, in position order (fewer: the blocks read ran out). */
  const take = (count: number): { b: DecodedBlock; base: number; j: number }[] => {
    const taken: { b: DecodedBlock; base: number; j: number }[] = [];
    while (taken.length < count && pending.length > 0) {
      const { b, base } = pending[0];
      for (j = Math.max(j, after - base); j < b.storeIds.length && taken.length < count; j++) {
        if (p.inMarketOnly && !(b.flags[j] & IN_MARKET)) continue;
        if (p.minScore !== undefined && !(b.score[j] >= p.minScore)) continue;
        taken.push({ b, base, j });
      }
      if (j >= b.storeIds.length) (pending.shift(), (j = 0));
    }
    return taken;
  };
  for (;;) {
    pending.push(...read);
    next += want;
    // The rows that pass so far, their details a batch at a time until the page is full (with
    // filters on the details, the statement returns only the rows that pass).
    while (out.length < p.limit) {
      const need = p.limit - out.length;
      // With filters, as many rows as should fill the page at the share of rows that passed so far (a fifth more).
      const ask = details.filters ? Math.ceil((need * (asked + 2) * 1.2) / (passed + 1)) : need;
      const batch = take(Math.min(ask, DETAIL_BATCHES[DETAIL_BATCHES.length - 1]));
      if (batch.length === 0) break;
      const storeIds = batch.map((c) => c.b.storeIds[c.j]);
      let found: Map<string, DetailPart>;
      if (unchecked) {
        const checked = await detailsWithHead(q, workspaceId, version, gen, storeIds, details.sql);
        if (checked.head === undefined || checked.head.gen !== gen || String(checked.head.created_at) !== stamp || !(checked.head.state === 'current' || checked.head.state === 'superseded')) return undefined;
        found = checked.found;
        unchecked = false;
      } else found = await detailsOf(q, workspaceId, gen, storeIds, details.sql);
      asked += batch.length;
      passed += found.size;
      for (const { b, base, j } of batch) {
        const d = found.get(b.storeIds[j]);
        if (!d || out.length >= p.limit) continue;
        out.push({ pos: base + j + 1, ...rowOf(b, j), updated_at: createdAt, ...d });
      }
    }
    // A page that ends before any statement read the head: the version's head read first, as without it.
    if (unchecked && (out.length >= p.limit || next >= blocks)) return undefined;
    if (out.length >= p.limit || next >= blocks) return out;
    want = Math.min(MAX_BLOCKS_READ, want * 2);
    read = await readBlocks(next, next + want);
    if (read === undefined) return undefined;
  }
}

const BLOCK_COLUMNS = sql`k.block, k.store_ids, k.scores, k.logits, k.logit_sds, k.model_versions, k.flags`;
/** A page row's details (d) and account state (a), as detailsOf and detailsWithHead read them. */
const DETAIL_COLUMNS = sql`d.store_id, d.domain, d.country, d.category, d.plan, d.evidence, d.signals, a.status, a.delivered_to_agent`;

/** `storeIds` padded with nulls to the first of DETAIL_BATCHES that holds them (a few statement texts, each prepared once). */
function padded(storeIds: readonly string[]): (string | null)[] {
  const size = DETAIL_BATCHES.find((n) => n >= storeIds.length) ?? storeIds.length;
  return Array.from({ length: size }, (_, i) => (i < storeIds.length ? storeIds[i] : null));
}

/** The details (generation `gen`) and account state of those of `storeIds` that pass `filters` (SQL on d and a), by store id. */
async function detailsOf(q: Kysely<Database>, workspaceId: string, gen: number, storeIds: readonly string[], filters: RawBuilder<unknown>): Promise<Map<string, DetailPart>> {
  const rows = await prepared(
    q,
    sql<DetailPart>`
    select ${DETAIL_COLUMNS}
    from ranking_details d join accounts a on a.workspace_id = d.workspace_id and a.store_id = d.store_id
    where d.workspace_id = ${workspaceId} and d.gen = ${gen} and d.store_id in (${sql.join(padded(storeIds))}) ${filters}`,
  );
  return new Map(rows.map((r) => [r.store_id, r]));
}

/**
 * detailsOf with the version's head in the same statement: its generation, when it was written
 * and its state (head undefined when the version has no row), and the details of `gen`.
 */
async function detailsWithHead(
  q: Kysely<Database>,
  workspaceId: string,
  version: number,
  gen: number,
  storeIds: readonly string[],
  filters: RawBuilder<unknown>,
): Promise<{ head: { gen: number; created_at: string; state: string } | undefined; found: Map<string, DetailPart> }> {
  const rows = await prepared(
    q,
    sql<DetailPart & { v_gen: number; v_created_at: string; v_state: string }>`
    select v.gen as v_gen, v.created_at as v_created_at, v.state as v_state, ${DETAIL_COLUMNS}
    from ranking_versions v
    left join (ranking_details d join accounts a on a.workspace_id = d.workspace_id and a.store_id = d.store_id)
      on d.workspace_id = ${workspaceId} and d.gen = ${gen} and d.store_id in (${sql.join(padded(storeIds))}) ${filters}
    where v.workspace_id = ${workspaceId} and v.version = ${version}`,
  );
  const found = new Map<string, DetailPart>();
  for (const { v_gen: _g, v_created_at: _c, v_state: _s, ...d } of rows) if (d.store_id !== null) found.set(d.store_id, d);
  const h = rows[0];
  return { head: h && { gen: Number(h.v_gen), created_at: h.v_created_at, state: h.v_state }, found };
}

/** One account of the current ranking, or undefined when the workspace cannot see the store. */
export async function rankedAccount(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<PageRow | undefined> {
  // The position read from its bucket (accounts/positions.ts currentPositionSql), the row from its block.
  const rows = await prepared(
    q,
    sql<PageRow>`
    select p.pos, d.store_id, d.domain, d.country, d.category, d.plan, ${rowFromBlockSql(sql`p.pos`)},
      d.evidence, d.signals, a.status, a.delivered_to_agent, v.created_at as updated_at
    from workspaces w
    join ranking_versions v on v.workspace_id = w.id and v.version = w.ranking_version
    join (select ${currentPositionSql(workspaceId, storeId)} as pos) p on p.pos is not null
    join ranking_blocks k on ${blockOfSql(workspaceId, currentVersionSql(workspaceId), sql`p.pos`)} and k.version = w.ranking_version
    join ranking_details d on d.workspace_id = w.id and d.gen = v.gen and d.store_id = ${storeId}
    join accounts a on a.workspace_id = w.id and a.store_id = ${storeId}
    where w.id = ${workspaceId}`,
  );
  return rows[0];
}

/** The page's filters on the details d and accounts a, as SQL conditions (each `and …`); `filters` false when there are none. */
export function detailsFilter(p: PageQuery): { filters: boolean; sql: RawBuilder<unknown> } {
  const parts: RawBuilder<unknown>[] = [];
  if (p.country !== undefined) parts.push(sql`and d.country = ${p.country}`);
  if (p.category !== undefined) parts.push(sql`and d.category = ${p.category}`);
  if (p.plan !== undefined) parts.push(sql`and d.plan = ${p.plan}`);
  if (p.status !== undefined) parts.push(sql`and a.status = ${p.status}`);
  if (p.signalType !== undefined || p.signalsSince !== undefined) {
    parts.push(sql`and exists (
      select 1 from store_signals s join ingested_months im on im.month = s.month and im.run_id = s.run_id
      where s.store_id = d.store_id
        ${p.signalType !== undefined ? sql`and s.type = ${p.signalType}` : sql``}
        ${p.signalsSince !== undefined ? sql`and s.month >= ${p.signalsSince}` : sql``})`);
  }
  return { filters: parts.length > 0, sql: parts.length ? sql.join(parts, sql` `) : sql`` };
}

export type CurrentRow = Pick<RankingRow, 'store_id' | 'score' | 'logit' | 'logit_sd' | 'in_market' | 'explore' | 'model_version'> & {
  /** 1: held out of the list by its status (accounts/blocks.ts HELD). */
  held: number;
};

/** The current ranking (its version, details generation and narrow rows: what a re-ranking compares against). */
export async function currentRanking(q: Kysely<Database>, workspaceId: string): Promise<{ version: number; gen: number | null; rows: CurrentRow[] }> {
  const head = await rankingHead(q, workspaceId);
  if (head.gen === null) return { ...head, rows: [] };
  const rows: CurrentRow[] = [];
  await eachBlock(q, workspaceId, head.version, (b) => {
    for (let j = 0; j < b.storeIds.length; j++) {
      rows.push({ store_id: b.storeIds[j], ...rowOf(b, j), held: b.flags[j] & HELD ? 1 : 0 });
    }
  });
  return { ...head, rows };
}

/** Blocks of a version read at a time when all of them are (about 2.5 MB). */
const BLOCKS_AT_A_TIME = 256;

/** Calls `fn` with each block of the version, decoded, in position order. */
async function eachBlock(q: Kysely<Database>, workspaceId: string, version: number, fn: (b: DecodedBlock) => void): Promise<void> {
  await eachBlockRow(q, workspaceId, version, ['store_ids', 'scores', 'logits', 'logit_sds', 'model_versions', 'flags'], (r) => fn(decodeBlock(r)));
}

/** Calls `fn` with `columns` of each block row of the version, in position order, BLOCKS_AT_A_TIME rows a statement. */
async function eachBlockRow<C extends keyof RankingBlocksTable>(
  q: Kysely<Database>,
  workspaceId: string,
  version: number,
  columns: readonly C[],
  fn: (r: Pick<Selectable<RankingBlocksTable>, C>) => void,
): Promise<void> {
  for (let from = 0; ; from += BLOCKS_AT_A_TIME) {
    const rows = (await q
      .selectFrom('ranking_blocks')
      .select(columns)
      .where('workspace_id', '=', workspaceId)
      .where('version', '=', version)
      .where('block', '>=', from)
      .where('block', '<', from + BLOCKS_AT_A_TIME)
      .orderBy('block')
      .execute()) as unknown as Pick<Selectable<RankingBlocksTable>, C>[];
    for (const r of rows) fn(r);
    if (rows.length < BLOCKS_AT_A_TIME) return;
  }
}

/** The current ranking version and its details generation (null: the workspace has no ranking yet). */
export async function rankingHead(q: Kysely<Database>, workspaceId: string): Promise<{ version: number; gen: number | null }> {
  const ws = await q.selectFrom('workspaces').select('ranking_version').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const v = await q.selectFrom('ranking_versions').select('gen').where('workspace_id', '=', workspaceId).where('version', '=', ws.ranking_version).executeTakeFirst();
  return { version: ws.ranking_version, gen: v?.gen ?? null };
}

/** The recent signals (JSON text) each row of a details generation shows. */
export async function detailSignals(q: Kysely<Database>, workspaceId: string, gen: number): Promise<Map<string, string>> {
  const rows = await q.selectFrom('ranking_details').select(['store_id', 'signals']).where('workspace_id', '=', workspaceId).where('gen', '=', gen).execute();
  return new Map(rows.map((r) => [r.store_id, r.signals]));
}

/** One text column of a details generation (signals or evidence) for `storeIds`, read 500 ids a statement. */
export async function detailColumn(q: Kysely<Database>, workspaceId: string, gen: number, column: 'signals' | 'evidence', storeIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < storeIds.length; i += 500) {
    const rows = await q
      .selectFrom('ranking_details')
      .select(['store_id', column])
      .where('workspace_id', '=', workspaceId)
      .where('gen', '=', gen)
      .where('store_id', 'in', storeIds.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.store_id, (r as Record<string, string>)[column]!);
  }
  return out;
}

/** Every row of the workspace's current ranking, in ranking order (tests, benchmarks, exports). */
export async function currentRows(q: Kysely<Database>, workspaceId: string): Promise<PageRow[]> {
  const ws = await q.selectFrom('workspaces').select('ranking_version').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  return pageRanking(q, workspaceId, ws.ranking_version, { inMarketOnly: false, limit: Number.MAX_SAFE_INTEGER });
}

/** The store ids among `storeIds` the workspace can see (in its current ranking). */
export async function visibleStoreIds(q: Kysely<Database>, workspaceId: string, storeIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const byBucket = new Map<number, string[]>();
  for (const id of storeIds) {
    const b = bucketOf(id);
    const ids = byBucket.get(b);
    if (ids) ids.push(id);
    else byBucket.set(b, [id]);
  }
  const buckets = [...byBucket.keys()];
  // One version for the lot: the buckets are read in one statement (500 at a time, of the version read first).
  const ws = await q.selectFrom('workspaces').select('ranking_version').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  for (let i = 0; i < buckets.length; i += 500) {
    const rows = await q
      .selectFrom('ranking_position_buckets')
      .select(['bucket', 'entries'])
      .where('workspace_id', '=', workspaceId)
      .where('version', '=', ws.ranking_version)
      .where('bucket', 'in', buckets.slice(i, i + 500))
      .execute();
    for (const r of rows) for (const id of byBucket.get(r.bucket)!) if (positionIn(r.entries, id) !== undefined) out.add(id);
  }
  return out;
}

/**
 * The current ranking's in-market accounts, best score first (the first `limit`): not the list's
 * own order, which places explore rows among the first (accounts/in-market.ts listOrder), so a
 * managed watch takes the best-scored accounts.
 */
export async function inMarketStoreIds(q: Kysely<Database>, workspaceId: string, limit: number): Promise<string[]> {
  const { version } = await rankingHead(q, workspaceId);
  if (limit <= 0) return [];
  // Every block's marks and scores (9 bytes a row); the store ids only of the blocks that hold the best `limit` (and any tied with the last).
  const listed: { block: number; j: number; score: number }[] = [];
  await eachBlockRow(q, workspaceId, version, ['block', 'flags', 'scores'], (r) => {
    const flags = r.flags;
    const scores = Buffer.from(r.scores.buffer, r.scores.byteOffset, r.scores.byteLength);
    for (let j = 0; j < flags.length; j++) if (flags[j] & IN_MARKET) listed.push({ block: Number(r.block), j, score: scores.readDoubleLE(8 * j) });
  });
  listed.sort((a, b) => b.score - a.score);
  const last = listed[Math.min(limit, listed.length) - 1];
  const best = last === undefined ? [] : listed.filter((r) => r.score >= last.score);
  const blocks = [...new Set(best.map((r) => r.block))];
  const ids = new Map<number, string[]>();
  for (let i = 0; i < blocks.length; i += 500) {
    const rows = await q
      .selectFrom('ranking_blocks')
      .select(['block', 'store_ids'])
      .where('workspace_id', '=', workspaceId)
      .where('version', '=', version)
      .where('block', 'in', blocks.slice(i, i + 500))
      .execute();
    for (const r of rows) ids.set(Number(r.block), JSON.parse(r.store_ids) as string[]);
  }
  return best
    .map((r) => ({ store_id: ids.get(r.block)![r.j], score: r.score }))
    .sort(rankingOrder)
    .slice(0, limit)
    .map((r) => r.store_id);
}

/** How many accounts the current ranking has in market. */
export async function countInMarket(q: Kysely<Database>, workspaceId: string): Promise<number> {
  const r = await q
    .selectFrom('workspaces as w')
    .innerJoin('ranking_versions as v', (j) => j.onRef('v.workspace_id', '=', 'w.id').onRef('v.version', '=', 'w.ranking_version'))
    .select('v.in_market')
    .where('w.id', '=', workspaceId)
    .executeTakeFirst();
  return Number(r?.in_market ?? 0);
}
