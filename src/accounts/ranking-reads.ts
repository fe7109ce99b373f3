/**
 * Reading ranking versions (accounts/rankings.ts writes them): a page of a version in its order
 * with the page's filters, one account of the current version, the current version's head and
 * rows, and what the watches ask of it (its in-market accounts, which stores it holds). The hot
 * reads are plain SQL through prepared() (db/prepared.ts).
 */
import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import type { AccountStatus } from './statuses.js';
import type { SignalType } from '../core/signals.js';
import { prepared } from '../db/prepared.js';
import { bucketOf, currentRowSql, positionIn } from './positions.js';
import type { Database } from '../db/database.js';
import type { AccountsTable, RankingDetailsTable, RankingsTable } from './tables.js';

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
export type PageRow = Omit<RankingsTable, 'workspace_id' | 'version'> &
  Pick<RankingDetailsTable, 'domain' | 'country' | 'category' | 'plan' | 'evidence' | 'signals'> &
  Pick<Selectable<AccountsTable>, 'status' | 'delivered_to_agent'> & {
    /** When the row's ranking version was written. */
    updated_at: string;
  };

const ROW_COLUMNS = sql`r.pos, r.store_id, d.domain, d.country, d.category, d.plan, r.score, r.logit, r.logit_sd, r.in_market, r.explore, r.model_version,
  d.evidence, d.signals, a.status, a.delivered_to_agent, v.created_at as updated_at`;

const ROW_JOINS = sql`join rankings r on r.workspace_id = v.workspace_id and r.version = v.version
  join ranking_details d on d.workspace_id = v.workspace_id and d.gen = v.gen and d.store_id = r.store_id
  join accounts a on a.workspace_id = v.workspace_id and a.store_id = r.store_id`;

/** One page of ranking `version` (score desc, store_id asc: its positions in order). Hot path: plain SQL. */
export async function pageRanking(q: Kysely<Database>, workspaceId: string, version: number, p: PageQuery): Promise<PageRow[]> {
  return prepared(
    q,
    sql<PageRow>`
    select ${ROW_COLUMNS}
    from ranking_versions v ${ROW_JOINS}
    where v.workspace_id = ${workspaceId} and v.version = ${version} and r.pos > ${p.afterPos ?? 0}
      ${filtersSql(p)}
    order by r.pos
    limit ${p.limit}`,
  );
}

/** One account of the current ranking, or undefined when the workspace cannot see the store. */
export async function rankedAccount(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<PageRow | undefined> {
  const rows = await prepared(
    q,
    sql<PageRow>`
    select ${ROW_COLUMNS}
    from workspaces w
    join ranking_versions v on v.workspace_id = w.id and v.version = w.ranking_version
    join rankings r on ${currentRowSql(workspaceId, storeId)} and r.version = w.ranking_version
    join ranking_details d on d.workspace_id = w.id and d.gen = v.gen and d.store_id = r.store_id
    join accounts a on a.workspace_id = w.id and a.store_id = r.store_id
    where w.id = ${workspaceId} and r.store_id = ${storeId}`,
  );
  return rows[0];
}

/** The page's filters as SQL conditions (each `and …`) on the rows r, details d and accounts a. */
function filtersSql(p: PageQuery): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (p.inMarketOnly) parts.push(sql`and r.in_market = 1`);
  if (p.minScore !== undefined) parts.push(sql`and r.score >= ${p.minScore}`);
  if (p.country !== undefined) parts.push(sql`and d.country = ${p.country}`);
  if (p.category !== undefined) parts.push(sql`and d.category = ${p.category}`);
  if (p.plan !== undefined) parts.push(sql`and d.plan = ${p.plan}`);
  if (p.status !== undefined) parts.push(sql`and a.status = ${p.status}`);
  if (p.signalType !== undefined || p.signalsSince !== undefined) {
    parts.push(sql`and exists (
      select 1 from store_signals s join ingested_months im on im.month = s.month and im.run_id = s.run_id
      where s.store_id = r.store_id
        ${p.signalType !== undefined ? sql`and s.type = ${p.signalType}` : sql``}
        ${p.signalsSince !== undefined ? sql`and s.month >= ${p.signalsSince}` : sql``})`);
  }
  return parts.length ? sql.join(parts, sql` `) : sql``;
}

export type CurrentRow = Pick<RankingsTable, 'store_id' | 'score' | 'logit' | 'logit_sd' | 'in_market' | 'explore' | 'model_version'>;

/** The current ranking (its version, details generation and narrow rows: what a re-ranking compares against). */
export async function currentRanking(q: Kysely<Database>, workspaceId: string): Promise<{ version: number; gen: number | null; rows: CurrentRow[] }> {
  const head = await rankingHead(q, workspaceId);
  if (head.gen === null) return { ...head, rows: [] };
  const rows = await q
    .selectFrom('rankings')
    .select(['store_id', 'score', 'logit', 'logit_sd', 'in_market', 'explore', 'model_version'])
    .where('workspace_id', '=', workspaceId)
    .where('version', '=', head.version)
    .orderBy('pos')
    .execute();
  return { ...head, rows };
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
  const rows = await q
    .selectFrom('workspaces as w')
    .innerJoin('rankings as r', (j) => j.onRef('r.workspace_id', '=', 'w.id').onRef('r.version', '=', 'w.ranking_version'))
    .select('r.store_id')
    .where('w.id', '=', workspaceId)
    .where('r.in_market', '=', 1)
    .orderBy('r.score', 'desc')
    .orderBy('r.store_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.store_id);
}

/** How many accounts the current ranking has in market. */
export async function countInMarket(q: Kysely<Database>, workspaceId: string): Promise<number> {
  const r = await q
    .selectFrom('workspaces as w')
    .innerJoin('rankings as r', (j) => j.onRef('r.workspace_id', '=', 'w.id').onRef('r.version', '=', 'w.ranking_version'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('w.id', '=', workspaceId)
    .where('r.in_market', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
