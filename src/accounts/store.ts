/**
 * A workspace's accounts: the stores of its current ranking (accounts/rankings.ts: scores, evidence,
 * recent signals by version) and the operator's state of each (this module's accounts table:
 * status, delivery marks). The ranking refresh (accounts/refresh.ts) writes ranking versions;
 * `storelens accounts import` writes one through upsertAccounts / importAccounts.
 *
 * Served pages are reused until the workspace's accounts_version (or ranking_version) moves,
 * so every write that changes what a page shows bumps it in the same transaction: a new
 * ranking version does (writeRanking), and so does setAccountStatus. markDelivered is the one
 * deliberate exception (see there).
 */
import { type Kysely, sql } from 'kysely';
import type { AccountStatus } from './statuses.js';
import type { Db } from '../db/database.js';
import { datedAfter } from '../core/dated.js';
import { sortableId } from '../db/ids.js';
import { lockRows } from '../db/locks.js';
import { prepared } from '../db/prepared.js';
import { bucketOf, positionSql } from './positions.js';
import { currentRanking, type PageRow, rankedAccount } from './ranking-reads.js';
import { columnsOf, type DetailRow, inTransaction, inWrites, type RankedRow, type Run, startRanking, writeRanking } from './rankings.js';
import type { Database } from '../db/database.js';
import { importedEvidence, importedLogit } from './imported.js';
import { NOT_IN_MARKET } from './in-market.js';
import { listBefore, storedListEvents } from './list-changes.js';
import { listStatuses, sourceListed, underStatus } from './statuses-list.js';
import { appendEvents } from '../webhooks/index.js';

export interface AccountInput {
  store_id: string;
  score: number;
  domain?: string | null;
  country?: string | null;
  category?: string | null;
  plan?: string | null;
  in_market?: boolean;
  /**
   * Scored rows (model_version > 0): the model's stored evidence. Imported rows: their reasons
   * (any shape accounts/imported.ts documents), shown under the term that carries the imported score.
   */
  evidence?: unknown[];
  /** The score's logit (the evidence's contributions add up to it); an imported score's by default. */
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

/**
 * Writes the accounts given (the last of a store_id wins) as a new ranking version that carries
 * over every other account of the current one, in the caller's transaction. Re-scored or new
 * rows start a new ranking version; cursors keep walking the one they started on. The accounts
 * that join or leave the in-market list against the version it replaces are announced
 * (store.entered, store.exited) in the transaction that makes it current, as a re-ranking's are.
 */
export async function upsertAccounts(trx: Kysely<Database>, workspaceId: string, accounts: readonly AccountInput[], now: Date): Promise<UpsertResult> {
  return importInto(inTransaction(trx), trx, workspaceId, accounts, now);
}

/**
 * upsertAccounts for a whole import (the admin CLI, tests): the new version's rows are written
 * in parts, each its own short write, and the version becomes current in one more. Takes the
 * Db, since it opens those writes itself.
 */
export async function importAccounts(db: Db, workspaceId: string, accounts: readonly AccountInput[], now: Date, signal?: AbortSignal): Promise<UpsertResult> {
  return importInto(inWrites(db), db.kysely, workspaceId, accounts, now, signal);
}

/** Tries of an import whose ranking another writer (a re-rank) replaced, or whose statuses a decision moved, while it was written. */
const IMPORT_TRIES = 5;

/**
 * Writes the new version from the current one, and makes it current only if that one still is
 * (compare-and-set: a re-rank that got there first is never overwritten by rows read before it);
 * else reads the new current version and writes again.
 */
async function importInto(run: Run, q: Kysely<Database>, workspaceId: string, accounts: readonly AccountInput[], now: Date, signal?: AbortSignal): Promise<UpsertResult> {
  const listed = dedupe(accounts);
  for (let i = 0; i < IMPORT_TRIES; i++) {
    signal?.throwIfAborted();
    const done = await importOnce(run, q, workspaceId, listed, now, signal);
    if (done) return done;
  }
  throw new Error(`the ranking of workspace ${workspaceId}, or a status that keeps an account off its list, changed under ${IMPORT_TRIES} imports in a row; try again`);
}

async function importOnce(run: Run, q: Kysely<Database>, workspaceId: string, listed: readonly AccountInput[], now: Date, signal?: AbortSignal): Promise<UpsertResult | null> {
  // The statuses first (with the count they are as of), then the rows they apply to (statuses-list.ts).
  const statuses = await listStatuses(q, workspaceId);
  const current = await currentRanking(q, workspaceId);
  const before = new Map(current.rows.map((r) => [r.store_id, r]));
  // The status of a row new to the workspace, when the caller gives one: an existing account keeps its own.
  const given = listed.filter((a) => a.status !== undefined);
  const existing = await existingAccounts(q, workspaceId, given.map((a) => a.store_id));
  const newStatuses = new Map(given.filter((a) => !existing.has(a.store_id)).map((a) => [a.store_id, a.status!]));
  const statusOf = (id: string) => statuses.held.get(id) ?? newStatuses.get(id);
  // Every row carried from the current version, its list mark from its source (its own, or held) under its status now.
  const ranked = new Map<string, RankedRow>(
    current.rows.map((r) => [r.store_id, { ...r, ...underStatus(sourceListed(r), r.explore === 1, statusOf(r.store_id)) }]),
  );
  const logits = new Map(listed.map((a) => [a.store_id, a.logit ?? importedLogit(a.score)]));
  for (const a of listed) {
    ranked.set(a.store_id, {
      store_id: a.store_id,
      score: a.score,
      logit: logits.get(a.store_id)!,
      // An imported score comes without the model's posterior: its spread is unknown.
      logit_sd: null,
      // The file's in_market is the row's source: a status that is never in market holds the row off the list.
      ...underStatus(a.in_market !== false, a.explore === true, statusOf(a.store_id)),
      model_version: a.model_version ?? 0,
    });
  }
  const details: DetailRow[] = listed.map((a) => ({
    store_id: a.store_id,
    domain: a.domain ?? null,
    country: a.country ?? null,
    category: a.category ?? null,
    plan: a.plan ?? null,
    // An imported row's reasons, in the declared evidence shape, under the term carrying its score.
    evidence: JSON.stringify(a.model_version ? (a.evidence ?? []) : importedEvidence(a.evidence ?? [], logits.get(a.store_id)!)),
    signals: JSON.stringify(a.signals ?? []),
  }));
  const rows = columnsOf([...ranked.values()]);
  // The accounts that join or leave the list against the version this one replaces, whatever
  // moves them (the file, a status): the re-ranking's comparison (list-changes.ts). A row of the
  // file shows the signals it gives (none from a file); a carried row, those it showed.
  const fileSignals = new Map(listed.filter((a) => a.signals?.length).map((a) => [a.store_id, a.signals!]));
  const events = await storedListEvents(q, workspaceId, current.gen, listBefore(current.rows), rows, (id) => fileSignals.get(id) ?? (logits.has(id) ? [] : undefined));
  const next = await startRanking(run, workspaceId, true, now);
  const made = await writeRanking(run, workspaceId, next, {
    rows,
    details,
    carryDetails: true,
    statuses: newStatuses,
    basedOn: current.version,
    // Current only if no status was decided since the statuses were read: else the import goes round again.
    statusSeq: statuses.seq,
    signal,
    now,
    // Current only if `current` still is (basedOn): the events are of the version it replaces, once.
    onCurrent: (trx) => appendEvents(trx, workspaceId, events, now),
  });
  if (!made) return null;
  const updated = listed.filter((a) => before.has(a.store_id));
  const reranked = updated.some((a) => {
    const old = before.get(a.store_id)!;
    return old.score !== a.score || old.in_market !== (ranked.get(a.store_id)!.in_market ? 1 : 0);
  });
  return { inserted: listed.length - updated.length, updated: updated.length, reranked };
}

/** Those of `storeIds` the workspace has an account row for (whatever its status). */
async function existingAccounts(q: Kysely<Database>, workspaceId: string, storeIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < storeIds.length; i += 500) {
    const rows = await q.selectFrom('accounts').select('store_id').where('workspace_id', '=', workspaceId).where('store_id', 'in', storeIds.slice(i, i + 500)).execute();
    for (const r of rows) out.add(r.store_id);
  }
  return out;
}

/** A status decision: the workspace's accounts change (a served page is stale) and, when it crosses the list's line, the statuses its ranking versions apply (statuses-list.ts). */
async function bumpVersions(trx: Kysely<Database>, workspaceId: string, crossesList: boolean): Promise<void> {
  await trx
    .updateTable('workspaces')
    .set((eb) => ({ accounts_version: eb('accounts_version', '+', 1), ...(crossesList ? { status_seq: eb('status_seq', '+', 1) } : {}) }))
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
export async function markDelivered(trx: Kysely<Database>, workspaceId: string, storeIds: readonly string[], now: Date): Promise<string[]> {
  if (storeIds.length === 0) return [];
  // Only the rows this UPDATE itself turned: a concurrent request that marked one first (its
  // row lock, then the re-checked condition) has it, so each delivery is recorded once.
  const marked = await trx
    .updateTable('accounts')
    .set({ delivered_to_agent: 1, delivered_at: now.toISOString() })
    .where('workspace_id', '=', workspaceId)
    .where('store_id', 'in', [...storeIds])
    .where('delivered_to_agent', '=', 0)
    .returning('store_id')
    .execute();
  return marked.map((r) => r.store_id);
}

/** Accounts in the workspace's current ranking. */
export async function countAccounts(q: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await q
    .selectFrom('workspaces as w')
    .innerJoin('ranking_versions as v', (j) => j.onRef('v.workspace_id', '=', 'w.id').onRef('v.version', '=', 'w.ranking_version'))
    .select('v.rows')
    .where('w.id', '=', workspaceId)
    .executeTakeFirst();
  return Number(row?.rows ?? 0);
}

/** One account of the workspace's current ranking, or undefined when the workspace cannot see that store. */
export async function getAccount(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<PageRow | undefined> {
  return rankedAccount(q, workspaceId, storeId);
}

/** getAccount with the account row locked for the rest of trx first (status decisions take turns with it). */
export async function lockAccount(trx: Kysely<Database>, workspaceId: string, storeId: string): Promise<PageRow | undefined> {
  await lockRows(trx, 'accounts', { workspace_id: workspaceId, store_id: storeId });
  return rankedAccount(trx, workspaceId, storeId);
}

/** Locks the account's row until the commit (a status decision under way is waited for) and resolves to its status (undefined: no such account). */
export async function lockAccountStatus(trx: Kysely<Database>, workspaceId: string, storeId: string): Promise<string | undefined> {
  const [account] = await lockRows(trx, 'accounts', { workspace_id: workspaceId, store_id: storeId });
  return account === undefined ? undefined : String(account.status);
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
 * nothing, when the workspace cannot see the store.
 *
 * The account row is locked first, so concurrent decisions on one account take turns; each is
 * stamped after the history entry before it (at `now`, or 1 ms after that entry when it is not
 * older), so the newest entry of the history is always the account's status.
 */
export async function setAccountStatus(trx: Kysely<Database>, workspaceId: string, storeId: string, change: StatusChange, now: Date): Promise<StatusEntry | undefined> {
  if (!(await accountVisible(trx, workspaceId, storeId))) return undefined;
  const [account] = await lockRows(trx, 'accounts', { workspace_id: workspaceId, store_id: storeId });
  if (!account) return undefined;
  const last = await trx
    .selectFrom('account_statuses')
    .select('created_at')
    .where('workspace_id', '=', workspaceId)
    .where('store_id', '=', storeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const at = datedAfter(now, last?.created_at);
  await trx.updateTable('accounts').set({ status: change.status }).where('workspace_id', '=', workspaceId).where('store_id', '=', storeId).execute();
  const created_at = at.toISOString();
  await trx
    .insertInto('account_statuses')
    .values({ id: sortableId('ast', at), workspace_id: workspaceId, store_id: storeId, status: change.status, note: change.note, actor: change.actor, created_at })
    .execute();
  // A decision that moves the account onto or off the list is counted, in this transaction, under
  // the workspace row's lock: an import's version, written from the statuses before it, becomes
  // current before it or not at all (rankings.ts writeRanking), and the re-listing applies it to a
  // version made current before it (statuses-list.ts). Any other only changes what pages show.
  const crosses = NOT_IN_MARKET.has(String(account.status) as AccountStatus) !== NOT_IN_MARKET.has(change.status);
  await bumpVersions(trx, workspaceId, crosses);
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

/** The account's status (undefined: the workspace has no such account). */
export async function accountStatus(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<AccountStatus | undefined> {
  const r = await q.selectFrom('accounts').select('status').where('workspace_id', '=', workspaceId).where('store_id', '=', storeId).executeTakeFirst();
  return r?.status;
}

/**
 * True when the workspace can see the store (it is one of its accounts). Every operation on a
 * store (deals, contacts, watches, statuses) answers 404 when this is false.
 */
export async function accountVisible(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<boolean> {
  const rows = await prepared(
    q,
    sql<{ pos: number | null }>`select ${positionSql(storeId)} as pos from workspaces w
      join ranking_position_buckets b on b.workspace_id = w.id and b.version = w.ranking_version and b.bucket = ${bucketOf(storeId)}
      where w.id = ${workspaceId}`,
  );
  return rows[0]?.pos != null;
}
