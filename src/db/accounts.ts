/**
 * Scored accounts of a workspace, ranked by (score desc, store_id asc), with their wide parts
 * (evidence, recent signals) in account_details. The ranking refresh (accounts/refresh.ts) writes
 * them through saveScoredAccounts, `storelens accounts import` through upsertAccounts (built on
 * it); both keep the ranking history that pagination cursors rely on.
 *
 * Served pages are reused until the workspace's accounts_version (or ranking_version) moves,
 * so every write of accounts rows must bump it in the same transaction. This module is the
 * only writer of the table and its exported writers do: saveScoredAccounts (and upsertAccounts,
 * importAccounts), removeAccounts and setAccountStatus. markDelivered is the one deliberate
 * exception (see there).
 */
import type { Kysely } from 'kysely';
import type { AccountStatus } from '../accounts/statuses.js';
import type { Db } from './index.js';
import { newId } from './ids.js';
import { runBulk } from './prepared.js';
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
  /** The score's logit (the evidence's contributions add up to it). */
  logit?: number;
  /** In the in-market list as exploration. */
  explore?: boolean;
  model_version?: number;
  /** Recent signals shown on the row. */
  signals?: unknown[];
  /** Status of a new row (an existing row keeps its own: set_account_status owns it). */
  status?: AccountStatus;
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
  const rows = dedupe(accounts);
  const before = new Map<string, { score: number; in_market: number }>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const ids = rows.slice(i, i + CHUNK).map((a) => a.store_id);
    for (const r of await trx.selectFrom('accounts').select(['store_id', 'score', 'in_market']).where('workspace_id', '=', workspaceId).where('store_id', 'in', ids).execute()) {
      before.set(r.store_id, r);
    }
  }
  const scored: ScoredAccount[] = rows.map((a) => ({
    store_id: a.store_id,
    score: a.score,
    logit: a.logit ?? 0,
    in_market: a.in_market !== false,
    explore: a.explore === true,
    model_version: a.model_version ?? 0,
    domain: a.domain ?? null,
    country: a.country ?? null,
    category: a.category ?? null,
    plan: a.plan ?? null,
    evidence: a.evidence ?? [],
    signals: a.signals ?? [],
    status: a.status,
  }));
  const { reranked } = await saveScoredAccounts(trx, workspaceId, scored, before, now, true);
  return { inserted: rows.length - before.size, updated: before.size, reranked };
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

/** Rows of [store_id, evidence JSON, signals JSON]. */
async function writeDetails(trx: Kysely<Database>, workspaceId: string, rows: readonly (readonly unknown[])[]): Promise<void> {
  await runBulk(
    trx,
    {
      sqlite:
        'insert into account_details (store_id, evidence, signals, workspace_id) values (?, ?, ?, ?) ' +
        'on conflict (workspace_id, store_id) do update set evidence = excluded.evidence, signals = excluded.signals',
      postgres:
        'insert into account_details (store_id, evidence, signals, workspace_id) select v.*, $4::text from unnest($1::text[], $2::text[], $3::text[]) as v ' +
        'on conflict (workspace_id, store_id) do update set evidence = excluded.evidence, signals = excluded.signals',
      extra: [workspaceId],
    },
    rows,
  );
}

/** A row of a re-scoring. The descriptive fields are written only by a full save. */
export interface ScoredAccount {
  store_id: string;
  score: number;
  logit: number;
  in_market: boolean;
  explore: boolean;
  model_version: number;
  domain?: string | null;
  country?: string | null;
  category?: string | null;
  plan?: string | null;
  /** Evidence before weighting (accounts/model.ts StoredEvidence). */
  evidence?: unknown[];
  signals?: unknown[];
  /** Status of a new row; an existing row keeps its own. */
  status?: AccountStatus;
}

const UPSERT_COLUMNS = 'store_id, domain, country, category, plan, score, logit, in_market, explore, model_version, status, workspace_id, updated_at';
const UPSERT_SET = ['domain', 'country', 'category', 'plan', 'score', 'logit', 'in_market', 'explore', 'model_version', 'updated_at']
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');

/**
 * A workspace's re-scoring, in the caller's transaction, at bulk speed (db/prepared.ts runBulk).
 * `full` writes every column (the data or the profile changed: new evidence, new rows); else
 * only the scores move (a refit on new labels). Keeps the ranking history of every account
 * whose score or in-market state changed, and bumps accounts_version.
 */
export async function saveScoredAccounts(
  trx: Kysely<Database>,
  workspaceId: string,
  rows: readonly ScoredAccount[],
  before: ReadonlyMap<string, { score: number; in_market: number }>,
  now: Date,
  full: boolean,
): Promise<{ reranked: boolean }> {
  const at = now.toISOString();
  if (full) {
    await runBulk(
      trx,
      {
        sqlite: `insert into accounts (${UPSERT_COLUMNS}) values (${UPSERT_COLUMNS.split(',').map(() => '?').join(', ')}) on conflict (workspace_id, store_id) do update set ${UPSERT_SET}`,
        postgres:
          `insert into accounts (${UPSERT_COLUMNS}) select v.*, $12::text, $13::text from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], ` +
          `$6::float8[], $7::float8[], $8::integer[], $9::integer[], $10::integer[], $11::text[]) as v ` +
          `on conflict (workspace_id, store_id) do update set ${UPSERT_SET}`,
        extra: [workspaceId, at],
      },
      rows.map((r) => [
        r.store_id, r.domain ?? null, r.country ?? null, r.category ?? null, r.plan ?? null, r.score, r.logit, r.in_market ? 1 : 0, r.explore ? 1 : 0,
        r.model_version, r.status ?? 'open',
      ]),
    );
    await writeDetails(trx, workspaceId, rows.map((r) => [r.store_id, JSON.stringify(r.evidence ?? []), JSON.stringify(r.signals ?? [])]));
  } else {
    await runBulk(
      trx,
      {
        sqlite: 'update accounts set score = ?, logit = ?, in_market = ?, explore = ?, model_version = ?, updated_at = ? where store_id = ? and workspace_id = ?',
        postgres:
          'update accounts a set score = v.score, logit = v.logit, in_market = v.in_market, explore = v.explore, model_version = v.model_version, updated_at = v.updated_at ' +
          'from unnest($1::float8[], $2::float8[], $3::integer[], $4::integer[], $5::integer[], $6::text[], $7::text[]) as v(score, logit, in_market, explore, model_version, updated_at, store_id) ' +
          'where a.workspace_id = $8 and a.store_id = v.store_id',
        extra: [workspaceId],
      },
      rows.map((r) => [r.score, r.logit, r.in_market ? 1 : 0, r.explore ? 1 : 0, r.model_version, at, r.store_id]),
    );
  }
  const superseded: { store_id: string; score: number; in_market: number }[] = [];
  for (const r of rows) {
    const old = before.get(r.store_id);
    if (old && (old.score !== r.score || old.in_market !== (r.in_market ? 1 : 0))) superseded.push({ store_id: r.store_id, score: old.score, in_market: old.in_market });
  }
  await bumpAccountsVersion(trx, workspaceId);
  if (superseded.length) {
    await recordSupersededScores(trx, workspaceId, superseded, now);
    await pruneRankingHistory(trx, now);
  }
  return { reranked: superseded.length > 0 };
}

/**
 * Removes accounts the workspace can no longer see (its profile or the panel changed), in the
 * caller's transaction; bumps accounts_version and starts a new ranking version, so cursors of
 * the ranking that listed them expire on schedule rather than skipping rows silently.
 */
export async function removeAccounts(trx: Kysely<Database>, workspaceId: string, storeIds: readonly string[], now: Date): Promise<void> {
  if (storeIds.length === 0) return;
  const superseded: { store_id: string; score: number; in_market: number }[] = [];
  for (let i = 0; i < storeIds.length; i += CHUNK) {
    const chunk = storeIds.slice(i, i + CHUNK);
    superseded.push(
      ...(await trx.selectFrom('accounts').select(['store_id', 'score', 'in_market']).where('workspace_id', '=', workspaceId).where('store_id', 'in', chunk).execute()),
    );
    await trx.deleteFrom('accounts').where('workspace_id', '=', workspaceId).where('store_id', 'in', chunk).execute();
    await trx.deleteFrom('account_details').where('workspace_id', '=', workspaceId).where('store_id', 'in', chunk).execute();
  }
  await bumpAccountsVersion(trx, workspaceId);
  if (superseded.length) {
    await recordSupersededScores(trx, workspaceId, superseded, now);
    await pruneRankingHistory(trx, now);
  }
}

/** What a re-scoring compares against: every account of the workspace as it stands. */
export async function scoredAccounts(
  q: Kysely<Database>,
  workspaceId: string,
): Promise<{ store_id: string; score: number; in_market: number; status: AccountStatus }[]> {
  return q.selectFrom('accounts').select(['store_id', 'score', 'in_market', 'status']).where('workspace_id', '=', workspaceId).execute();
}

/** The recent signals each account shows (JSON text), for the accounts given. */
export async function accountSignals(q: Kysely<Database>, workspaceId: string): Promise<Map<string, string>> {
  const rows = await q.selectFrom('account_details').select(['store_id', 'signals']).where('workspace_id', '=', workspaceId).execute();
  return new Map(rows.map((r) => [r.store_id, r.signals]));
}

async function bumpAccountsVersion(trx: Kysely<Database>, workspaceId: string): Promise<void> {
  await trx
    .updateTable('workspaces')
    .set((eb) => ({ accounts_version: eb('accounts_version', '+', 1) }))
    .where('id', '=', workspaceId)
    .execute();
}

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
export async function getAccount(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<(AccountRow & { evidence: string; signals: string }) | undefined> {
  return q
    .selectFrom('accounts as a')
    .innerJoin('account_details as d', (j) => j.onRef('d.workspace_id', '=', 'a.workspace_id').onRef('d.store_id', '=', 'a.store_id'))
    .selectAll('a')
    .select(['d.evidence', 'd.signals'])
    .where('a.workspace_id', '=', workspaceId)
    .where('a.store_id', '=', storeId)
    .executeTakeFirst();
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

/**
 * True when the workspace can see the store (it is one of its accounts). Every operation on a
 * store (deals, contacts, watches, statuses) answers 404 when this is false.
 */
export async function accountVisible(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<boolean> {
  const row = await q.selectFrom('accounts').select('store_id').where('workspace_id', '=', workspaceId).where('store_id', '=', storeId).executeTakeFirst();
  return row !== undefined;
}
