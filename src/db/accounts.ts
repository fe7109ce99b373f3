/**
 * Scored accounts of a workspace, ranked by (score desc, store_id asc). The accounts work
 * (ingest and scoring) fills this table through upsertAccounts, which keeps the ranking
 * history that pagination cursors rely on; `storelens accounts import` loads rows until then.
 */
import { type Kysely, sql } from 'kysely';
import type { Db } from './index.js';
import { pruneRankingHistory, recordSupersededScores } from './rankings.js';
import type { AccountRow, Database } from './schema.js';

export interface AccountInput {
  store_id: string;
  score: number;
  domain?: string | null;
  country?: string | null;
  category?: string | null;
  plan?: string | null;
  in_market?: boolean;
  evidence?: unknown[];
}

export interface UpsertResult {
  inserted: number;
  updated: number;
  /** True when an existing account's score or in-market state changed: a new ranking version. */
  reranked: boolean;
}

const CHUNK = 500;

/**
 * Inserts or updates accounts in chunks (one transaction each). Every chunk bumps the
 * workspace's accounts_version (served pages are reused until it moves: every writer of
 * accounts rows must bump it). A chunk that re-scores existing rows records their previous
 * scores and starts a new ranking version; new rows alone do not.
 */
export async function upsertAccounts(db: Db, workspaceId: string, accounts: readonly AccountInput[], now: Date): Promise<UpsertResult> {
  const result: UpsertResult = { inserted: 0, updated: 0, reranked: false };
  for (let i = 0; i < accounts.length; i += CHUNK) {
    const chunk = dedupe(accounts.slice(i, i + CHUNK));
    await db.write(async (trx) => {
      const existing = await trx
        .selectFrom('accounts')
        .select(['store_id', 'score', 'in_market'])
        .where('workspace_id', '=', workspaceId)
        .where('store_id', 'in', chunk.map((a) => a.store_id))
        .execute();
      const before = new Map(existing.map((r) => [r.store_id, r]));
      const superseded: { store_id: string; score: number; in_market: number }[] = [];
      for (const a of chunk) {
        const old = before.get(a.store_id);
        if (!old) result.inserted++;
        else {
          result.updated++;
          if (old.score !== a.score || old.in_market !== inMarket(a)) superseded.push(old);
        }
      }
      await trx
        .insertInto('accounts')
        .values(
          chunk.map((a) => ({
            workspace_id: workspaceId,
            store_id: a.store_id,
            score: a.score,
            domain: a.domain ?? null,
            country: a.country ?? null,
            category: a.category ?? null,
            plan: a.plan ?? null,
            in_market: inMarket(a),
            evidence: JSON.stringify(a.evidence ?? []),
            delivered_at: null,
            updated_at: now.toISOString(),
          })),
        )
        .onConflict((oc) =>
          oc.columns(['workspace_id', 'store_id']).doUpdateSet((eb) => ({
            score: eb.ref('excluded.score'),
            domain: eb.ref('excluded.domain'),
            country: eb.ref('excluded.country'),
            category: eb.ref('excluded.category'),
            plan: eb.ref('excluded.plan'),
            in_market: eb.ref('excluded.in_market'),
            evidence: eb.ref('excluded.evidence'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
      await trx
        .updateTable('workspaces')
        .set((eb) => ({ accounts_version: eb('accounts_version', '+', 1) }))
        .where('id', '=', workspaceId)
        .execute();
      if (superseded.length) {
        result.reranked = true;
        await recordSupersededScores(trx, workspaceId, superseded, now);
      }
    });
  }
  if (result.reranked) await pruneRankingHistory(db, now);
  return result;
}

const inMarket = (a: AccountInput): number => (a.in_market === false ? 0 : 1);

function dedupe(chunk: readonly AccountInput[]): AccountInput[] {
  const byId = new Map<string, AccountInput>();
  for (const a of chunk) byId.set(a.store_id, a);
  return [...byId.values()];
}

export interface PageQuery {
  inMarketOnly: boolean;
  /** Position after which the page starts (exclusive), in ranking order. */
  after?: { score: number; store_id: string };
  limit: number;
}

export type PageRow = Omit<AccountRow, 'workspace_id' | 'delivered_at'>;

/**
 * One page of the current ranking (score desc, store_id asc), each row carrying the ranking
 * version read in the same statement (one snapshot). Hot path: plain SQL.
 */
export async function pageAccounts(trx: Kysely<Database>, workspaceId: string, q: PageQuery): Promise<(PageRow & { ranking_version: number })[]> {
  const after = q.after;
  const { rows } = await sql<PageRow & { ranking_version: number }>`
    select store_id, domain, country, category, plan, score, in_market, delivered_to_agent, evidence, updated_at,
      (select ranking_version from workspaces where id = ${workspaceId}) as ranking_version
    from accounts
    where workspace_id = ${workspaceId}
      ${q.inMarketOnly ? sql`and in_market = 1` : sql``}
      ${after ? sql`and (score < ${after.score} or (score = ${after.score} and store_id > ${after.store_id}))` : sql``}
    order by score desc, store_id asc
    limit ${q.limit}`.execute(trx);
  return rows;
}

/**
 * Marks rows as delivered to an agent (one batched update). It leaves accounts_version alone:
 * a delivery mark never reverts, and a served page reports its rows delivered anyway.
 */
export async function markDelivered(trx: Kysely<Database>, workspaceId: string, storeIds: readonly string[], now: Date): Promise<void> {
  if (storeIds.length === 0) return;
  await trx
    .updateTable('accounts')
    .set({ delivered_to_agent: 1, delivered_at: now.toISOString() })
    .where('workspace_id', '=', workspaceId)
    .where('store_id', 'in', [...storeIds])
    .where('delivered_to_agent', '=', 0)
    .execute();
}

export async function countAccounts(db: Db, workspaceId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
