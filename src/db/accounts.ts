/**
 * Scored accounts of a workspace, ranked by (score desc, store_id asc). The accounts work
 * (ingest and scoring) fills this table through upsertAccounts, which keeps the ranking
 * history that pagination cursors rely on; `storelens accounts import` loads rows until then.
 *
 * Served pages are reused until the workspace's accounts_version (or ranking_version) moves,
 * so every write of accounts rows must bump it in the same transaction. This module is the
 * only writer of the table and its exported writers do: upsertAccounts (and importAccounts,
 * built on it) and setAccountStatus. markDelivered is the one deliberate exception (see there).
 */
import type { Kysely } from 'kysely';
import type { AccountStatus } from '../accounts/statuses.js';
import type { Db } from './index.js';
import { newId } from './ids.js';
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

/** Rows per statement (keeps every statement under SQLite's bound-parameter limit). */
const CHUNK = 500;

/**
 * Inserts or updates accounts in the caller's transaction and bumps the workspace's
 * accounts_version. Re-scoring existing rows records their previous scores and starts a new
 * ranking version; new rows alone do not.
 */
export async function upsertAccounts(trx: Kysely<Database>, workspaceId: string, accounts: readonly AccountInput[], now: Date): Promise<UpsertResult> {
  const result: UpsertResult = { inserted: 0, updated: 0, reranked: false };
  const rows = dedupe(accounts);
  const superseded: { store_id: string; score: number; in_market: number }[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const existing = await trx
      .selectFrom('accounts')
      .select(['store_id', 'score', 'in_market'])
      .where('workspace_id', '=', workspaceId)
      .where('store_id', 'in', chunk.map((a) => a.store_id))
      .execute();
    const before = new Map(existing.map((r) => [r.store_id, r]));
    for (const a of chunk) {
      const old = before.get(a.store_id);
      if (!old) result.inserted++;
      else {
        result.updated++;
        if (old.score !== a.score || old.in_market !== inMarket(a)) superseded.push(old);
      }
    }
    await writeRows(trx, workspaceId, chunk, now);
  }
  await bumpAccountsVersion(trx, workspaceId);
  if (superseded.length) {
    result.reranked = true;
    await recordSupersededScores(trx, workspaceId, superseded, now);
    await pruneRankingHistory(trx, now);
  }
  return result;
}

/** Transactions per import: a large file commits in parts, so it never holds the database for long. */
const IMPORT_CHUNK = 500;

/**
 * upsertAccounts for a whole import (the admin CLI, the demo): commits every IMPORT_CHUNK
 * accounts in a write of their own, each bumping accounts_version. Takes the Db, since it
 * opens those writes itself.
 */
export async function importAccounts(db: Db, workspaceId: string, accounts: readonly AccountInput[], now: Date): Promise<UpsertResult> {
  const total: UpsertResult = { inserted: 0, updated: 0, reranked: false };
  for (let i = 0; i < accounts.length; i += IMPORT_CHUNK) {
    const r = await db.write((trx) => upsertAccounts(trx, workspaceId, accounts.slice(i, i + IMPORT_CHUNK), now));
    total.inserted += r.inserted;
    total.updated += r.updated;
    total.reranked ||= r.reranked;
  }
  return total;
}

async function writeRows(trx: Kysely<Database>, workspaceId: string, chunk: readonly AccountInput[], now: Date): Promise<void> {
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
}

async function bumpAccountsVersion(trx: Kysely<Database>, workspaceId: string): Promise<void> {
  await trx
    .updateTable('workspaces')
    .set((eb) => ({ accounts_version: eb('accounts_version', '+', 1) }))
    .where('id', '=', workspaceId)
    .execute();
}

const inMarket = (a: AccountInput): number => (a.in_market === false ? 0 : 1);

/** The last entry of each store_id wins. */
function dedupe(accounts: readonly AccountInput[]): AccountInput[] {
  const byId = new Map<string, AccountInput>();
  for (const a of accounts) byId.set(a.store_id, a);
  return [...byId.values()];
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

export async function countAccounts(q: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await q
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One account of the workspace, or undefined when the workspace cannot see that store. */
export async function getAccount(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<AccountRow | undefined> {
  return q.selectFrom('accounts').selectAll().where('workspace_id', '=', workspaceId).where('store_id', '=', storeId).executeTakeFirst();
}

export interface StatusChange {
  status: AccountStatus;
  note: string | null;
  /** `key:<id>` or `member:<email>`. */
  actor: string;
}

export interface StatusEntry extends StatusChange {
  created_at: string;
}

/**
 * An operator's status decision: appended to the account's history and made the account's
 * current status (accounts_version bumped), in the caller's transaction. Undefined, writing
 * nothing, when the workspace has no account for the store (it cannot see it).
 */
export async function setAccountStatus(trx: Kysely<Database>, workspaceId: string, storeId: string, change: StatusChange, now: Date): Promise<StatusEntry | undefined> {
  const updated = await trx
    .updateTable('accounts')
    .set({ status: change.status })
    .where('workspace_id', '=', workspaceId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return undefined;
  const created_at = now.toISOString();
  await trx
    .insertInto('account_statuses')
    .values({ id: statusId(now), workspace_id: workspaceId, store_id: storeId, status: change.status, note: change.note, actor: change.actor, created_at })
    .execute();
  await bumpAccountsVersion(trx, workspaceId);
  return { ...change, created_at };
}

/** The account's status changes, newest first. */
export async function statusHistory(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<StatusEntry[]> {
  return q
    .selectFrom('account_statuses')
    .select(['status', 'note', 'actor', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('store_id', '=', storeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

let statusSeq = 0;
/** Sorts in writing order within one millisecond of one process (history ties break on it). */
function statusId(now: Date): string {
  statusSeq = (statusSeq + 1) % 0x1000000;
  return `ast_${now.getTime().toString(16).padStart(12, '0')}${statusSeq.toString(16).padStart(6, '0')}${newId('', 4).slice(1)}`;
}
