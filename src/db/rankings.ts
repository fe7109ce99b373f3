/**
 * Ranking versions and their history. A re-ranking (existing accounts re-scored) records the
 * scores it replaces, tagged with the version they belonged to, and bumps the workspace's
 * ranking_version. A cursor issued on version v keeps walking v — the score of an account at
 * v is its earliest recorded score of a version ≥ v, else its current score — for at least
 * RANKING_RETENTION_MS after v was superseded; then v is forgotten and its cursors answer 400.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AccountStatus } from '../accounts/statuses.js';
import type { SignalType } from '../signals/types.js';
import { prepared, runBulk } from './prepared.js';
import type { AccountRow, Database } from './schema.js';

export const RANKING_RETENTION_MS = 60 * 60 * 1000;

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
  /** Position after which the page starts (exclusive), in ranking order. */
  after?: { score: number; store_id: string };
  limit: number;
}

export type PageRow = Omit<AccountRow, 'workspace_id' | 'delivered_at'> & { evidence: string; signals: string };

/** Inside the re-ranking transaction: keeps the replaced scores and starts the next version. */
export async function recordSupersededScores(
  trx: Kysely<Database>,
  workspaceId: string,
  superseded: readonly { store_id: string; score: number; in_market: number }[],
  now: Date,
): Promise<void> {
  const ws = await trx.selectFrom('workspaces').select('ranking_version').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  await runBulk(
    trx,
    {
      sqlite: 'insert into ranking_history (store_id, score, in_market, workspace_id, version, superseded_ms) values (?, ?, ?, ?, ?, ?)',
      postgres:
        'insert into ranking_history (store_id, score, in_market, workspace_id, version, superseded_ms) ' +
        'select v.*, $4::text, $5::integer, $6::bigint from unnest($1::text[], $2::float8[], $3::integer[]) as v',
      extra: [workspaceId, ws.ranking_version, now.getTime()],
    },
    superseded.map((s) => [s.store_id, s.score, s.in_market]),
  );
  await trx
    .updateTable('workspaces')
    .set({ ranking_version: ws.ranking_version + 1 })
    .where('id', '=', workspaceId)
    .execute();
}

/** True when version v of the workspace's ranking can still be walked. */
export async function rankingRetained(q: Kysely<Database>, workspaceId: string, version: number): Promise<boolean> {
  const row = await q
    .selectFrom('ranking_history')
    .select('store_id')
    .where('workspace_id', '=', workspaceId)
    .where('version', '=', version)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function pruneRankingHistory(q: Kysely<Database>, now: Date): Promise<void> {
  await q.deleteFrom('ranking_history').where('superseded_ms', '<', now.getTime() - RANKING_RETENTION_MS).execute();
}

/**
 * One page of the current ranking (score desc, store_id asc), each row carrying the ranking
 * version read in the same statement (one snapshot). Hot path: plain SQL.
 */
export async function pageAccounts(q: Kysely<Database>, workspaceId: string, p: PageQuery): Promise<(PageRow & { ranking_version: number })[]> {
  const after = p.after;
  return prepared(
    q,
    sql<PageRow & { ranking_version: number }>`
    select a.store_id, a.domain, a.country, a.category, a.plan, a.score, a.in_market, a.delivered_to_agent, d.evidence, a.updated_at,
      a.logit, a.explore, a.model_version, d.signals, a.status,
      (select ranking_version from workspaces where id = ${workspaceId}) as ranking_version
    from accounts a join account_details d on d.workspace_id = a.workspace_id and d.store_id = a.store_id
    where a.workspace_id = ${workspaceId}
      ${filtersSql(p, 'a')}
      ${after ? sql`and (a.score < ${after.score} or (a.score = ${after.score} and a.store_id > ${after.store_id}))` : sql``}
    order by a.score desc, a.store_id asc
    limit ${p.limit}`,
  );
}

/** One page of an older ranking version (sorts the workspace's accounts; only cursors across a re-ranking take this path). */
export async function pageAccountsAt(trx: Kysely<Database>, workspaceId: string, version: number, q: PageQuery): Promise<PageRow[]> {
  const after = q.after;
  const asOf = (column: 'score' | 'in_market') => sql`coalesce((
      select h.${sql.ref(column)} from ranking_history h
      where h.workspace_id = a.workspace_id and h.store_id = a.store_id and h.version >= ${version}
      order by h.version asc limit 1), a.${sql.ref(column)})`;
  const { rows } = await sql<PageRow>`
    select store_id, domain, country, category, plan, score, in_market, delivered_to_agent, evidence, updated_at,
      logit, explore, model_version, signals, status from (
      select a.store_id, a.domain, a.country, a.category, a.plan, ${asOf('score')} as score, ${asOf('in_market')} as in_market,
        a.delivered_to_agent, d.evidence, a.updated_at, a.logit, a.explore, a.model_version, d.signals, a.status
      from accounts a join account_details d on d.workspace_id = a.workspace_id and d.store_id = a.store_id
      where a.workspace_id = ${workspaceId}
    ) r
    where 1 = 1
      ${filtersSql(q, 'r')}
      ${after ? sql`and (score < ${after.score} or (score = ${after.score} and store_id > ${after.store_id}))` : sql``}
    order by score desc, store_id asc
    limit ${q.limit}`.execute(trx);
  return rows;
}

/**
 * The page's filters as SQL conditions (each `and …`) on the row relation `rel`; score and
 * in_market are the relation's (the as-of values on an older version's path).
 */
function filtersSql(p: PageQuery, rel: 'a' | 'r'): RawBuilder<unknown> {
  const col = (name: string) => sql.ref(`${rel}.${name}`);
  const parts: RawBuilder<unknown>[] = [];
  if (p.inMarketOnly) parts.push(sql`and ${col('in_market')} = 1`);
  if (p.minScore !== undefined) parts.push(sql`and ${col('score')} >= ${p.minScore}`);
  if (p.country !== undefined) parts.push(sql`and ${col('country')} = ${p.country}`);
  if (p.category !== undefined) parts.push(sql`and ${col('category')} = ${p.category}`);
  if (p.plan !== undefined) parts.push(sql`and ${col('plan')} = ${p.plan}`);
  if (p.status !== undefined) parts.push(sql`and ${col('status')} = ${p.status}`);
  if (p.signalType !== undefined || p.signalsSince !== undefined) {
    parts.push(sql`and exists (
      select 1 from store_signals s join ingested_months im on im.month = s.month and im.run_id = s.run_id
      where s.store_id = ${col('store_id')}
        ${p.signalType !== undefined ? sql`and s.type = ${p.signalType}` : sql``}
        ${p.signalsSince !== undefined ? sql`and s.month >= ${p.signalsSince}` : sql``})`);
  }
  return parts.length ? sql.join(parts, sql` `) : sql``;
}

export interface RankingPage {
  rows: PageRow[];
  /** The ranking version the page was read from (goes into the next cursor). */
  version: number;
}

/**
 * A page of ranking `version` (undefined: the current one). `current` is the version the
 * caller last saw; the fast path checks it against the version read with the rows.
 */
export async function readRankingPage(trx: Kysely<Database>, workspaceId: string, version: number | undefined, current: number, q: PageQuery): Promise<RankingPage> {
  if (version === undefined || version >= current) {
    const rows = await pageAccounts(trx, workspaceId, q);
    const read = rows[0]?.ranking_version ?? current;
    if (version === undefined || version === read) return { rows, version: read };
  }
  return { rows: await pageAccountsAt(trx, workspaceId, version, q), version };
}
