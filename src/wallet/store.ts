/**
 * The wallet module: the wallet row (balance, plan, standing rules), the append-only ledger,
 * the versioned price list, approvals and supervision entries. Money is integer minor units.
 * The balance column is the sum of the ledger's amounts: appendEntry() is the only writer of
 * either, and it writes both in the caller's transaction. The entry's order number, balance_after
 * and time come from the UPDATE that moves the balance, so they follow the order in which the
 * wallet row's lock was taken, across processes.
 */
import { type Kysely, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import { beforeSeq, newId, nextSeq } from '../db/ids.js';
import { lockRows } from '../db/locks.js';
import type { Database } from '../db/database.js';
import type { When } from '../db/prepared.js';
import type { LedgerEntriesTable, LedgerKind, PricesTable } from './tables.js';

export type WalletRow = Selectable<Database['wallets']>;
export type LedgerEntry = Selectable<LedgerEntriesTable>;
export type ApprovalRow = Selectable<Database['approvals']>;
export type SupervisionRow = Selectable<Database['supervision_entries']>;
export type Price = Selectable<PricesTable>;

export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_PLAN = 'standard';
/**
 * The most a wallet holds, and the largest amount of any ledger entry, either sign: 10^15 minor
 * units (10,000,000,000,000.00 of a two-decimal currency). Far below 2^53, so every balance and
 * sum read into a number is exact; migration 0036 has the database refuse anything outside it.
 */
export const MONEY_LIMIT = 10 ** 15;
/** Accounts a plan delivers per month before each further one is billable. */
export const PLAN_ALLOWANCES: Readonly<Record<string, number>> = { standard: 1000 };
/**
 * The operation of the monthly statement's debits (src/wallet/statements.ts), one per closed
 * month keyed `YYYY-MM`. They bill what was already delivered: the monthly cap does not count them.
 */
export const STATEMENT_OPERATION = 'monthly_statement';

const int = (v: unknown): number => Number(v);
const normWallet = (w: WalletRow): WalletRow => ({
  ...w,
  balance: int(w.balance),
  auto_approve_below: w.auto_approve_below === null ? null : int(w.auto_approve_below),
  monthly_cap: w.monthly_cap === null ? null : int(w.monthly_cap),
  ledger_seq: int(w.ledger_seq),
});
const normEntry = (e: LedgerEntry): LedgerEntry => ({
  ...e,
  seq: int(e.seq),
  amount: int(e.amount),
  balance_after: int(e.balance_after),
  quantity: e.quantity === null ? null : int(e.quantity),
  unit_price: e.unit_price === null ? null : int(e.unit_price),
  price_version: e.price_version === null ? null : int(e.price_version),
});
const normApproval = (a: ApprovalRow): ApprovalRow => ({ ...a, seq: int(a.seq), amount: int(a.amount), quantity: int(a.quantity), price_version: int(a.price_version) });

/** The workspace's wallet as stored, or a new empty one (not yet written). */
export async function readWallet(q: Kysely<Database>, workspaceId: string, now: Date): Promise<WalletRow> {
  const row = await q.selectFrom('wallets').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row
    ? normWallet(row as WalletRow)
    : { workspace_id: workspaceId, currency: DEFAULT_CURRENCY, balance: 0, plan: DEFAULT_PLAN, auto_approve_below: null, monthly_cap: null, rules_updated_at: null, rules_updated_by: null, created_at: now.toISOString(), ledger_seq: 0, ledger_at: null };
}

/**
 * Writes the workspace's wallet row unless it has one (never waits for a charge holding its lock).
 * A delivery of accounts opens it: the monthly statement bills the closed months of every wallet
 * since its creation, so a workspace that never added money is billed for its deliveries too.
 */
export async function openWallet(trx: Kysely<Database>, workspaceId: string, now: Date): Promise<void> {
  await trx
    .insertInto('wallets')
    .values({ workspace_id: workspaceId, currency: DEFAULT_CURRENCY, plan: DEFAULT_PLAN, auto_approve_below: null, monthly_cap: null, rules_updated_at: null, rules_updated_by: null, created_at: now.toISOString() })
    .onConflict((oc) => oc.column('workspace_id').doNothing())
    .execute();
}

/**
 * The wallet row, created when missing, locked for the rest of trx (lockRows: a concurrent
 * charge waits here and then reads the new balance).
 */
export async function lockWallet(trx: Kysely<Database>, workspaceId: string, now: Date): Promise<WalletRow> {
  await openWallet(trx, workspaceId, now);
  const [wallet] = await lockRows(trx, 'wallets', { workspace_id: workspaceId });
  return normWallet(wallet as unknown as WalletRow);
}

export interface NewEntry {
  kind: LedgerKind;
  /** Signed: credits and refunds positive, debits negative. */
  amount: number;
  unit?: string | null;
  quantity?: number | null;
  unit_price?: number | null;
  price_version?: number | null;
  operation_id: string;
  idempotency_key: string;
  actor: string;
  allowed_by?: string | null;
  approval_id?: string | null;
  refund_of?: string | null;
  reason?: string | null;
}

/**
 * Appends one entry and moves the balance by its amount; `wallet` must come from lockWallet in the
 * same trx. One UPDATE of the wallet row moves the balance, takes the next order number and
 * dates the entry no earlier than the previous one, so newest first each entry's balance_after
 * is the next older one's plus its amount, and the newest one's is the balance.
 */
export async function appendEntry(trx: Kysely<Database>, wallet: WalletRow, e: NewEntry, now: Date): Promise<LedgerEntry> {
  if (!Number.isSafeInteger(e.amount)) throw new Error(`ledger amounts are whole minor units (got ${e.amount})`);
  const at = now.toISOString();
  const moved = await trx
    .updateTable('wallets')
    .set({
      balance: sql`balance + ${e.amount}`,
      ledger_seq: sql`ledger_seq + 1`,
      ledger_at: sql`case when ledger_at is null or ledger_at < ${at} then ${at} else ledger_at end`,
    })
    .where('workspace_id', '=', wallet.workspace_id)
    .returning(['balance', 'ledger_seq', 'ledger_at', 'currency'])
    .executeTakeFirstOrThrow();
  const row: LedgerEntry = {
    id: newId('led'),
    workspace_id: wallet.workspace_id,
    seq: int(moved.ledger_seq),
    kind: e.kind,
    amount: e.amount,
    currency: moved.currency,
    balance_after: int(moved.balance),
    unit: e.unit ?? null,
    quantity: e.quantity ?? null,
    unit_price: e.unit_price ?? null,
    price_version: e.price_version ?? null,
    operation_id: e.operation_id,
    idempotency_key: e.idempotency_key,
    actor: e.actor,
    allowed_by: e.allowed_by ?? null,
    approval_id: e.approval_id ?? null,
    refund_of: e.refund_of ?? null,
    reason: e.reason ?? null,
    created_at: moved.ledger_at!,
  };
  await trx.insertInto('ledger_entries').values(row).execute();
  wallet.balance = row.balance_after;
  wallet.ledger_seq = row.seq;
  wallet.ledger_at = row.created_at;
  return row;
}

export async function getEntry(q: Kysely<Database>, workspaceId: string | undefined, id: string): Promise<LedgerEntry | undefined> {
  let query = q.selectFrom('ledger_entries').selectAll().where('id', '=', id);
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  const r = await query.executeTakeFirst();
  return r ? normEntry(r as LedgerEntry) : undefined;
}

export async function entryByCause(q: Kysely<Database>, workspaceId: string, operationId: string, idempotencyKey: string): Promise<LedgerEntry | undefined> {
  const r = await q.selectFrom('ledger_entries').selectAll().where('workspace_id', '=', workspaceId).where('operation_id', '=', operationId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  return r ? normEntry(r as LedgerEntry) : undefined;
}

export const monthStart = (now: Date): string => `${now.toISOString().slice(0, 7)}-01T00:00:00.000Z`;

/**
 * Money spent in now's calendar month (UTC): debits less refunds, as a positive amount. The
 * monthly statement is left out: it bills an earlier month's deliveries and is never refused.
 */
export async function monthSpend(q: Kysely<Database>, workspaceId: string, now: Date): Promise<number> {
  const r = await q
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount'), eb.lit(0)).as('total'))
    .where('workspace_id', '=', workspaceId)
    .where('kind', 'in', ['debit', 'refund'])
    .where('operation_id', '!=', STATEMENT_OPERATION)
    .where('created_at', '>=', monthStart(now))
    .executeTakeFirstOrThrow();
  return -Number(r.total) || 0; // never -0
}

/** Sum of every entry's amount (what the balance must equal). */
export async function ledgerSum(q: Kysely<Database>, workspaceId: string): Promise<number> {
  const r = await q
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount'), eb.lit(0)).as('total'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(r.total);
}

/** The ledger, newest first. */
export async function pageLedger(q: Kysely<Database>, workspaceId: string, after: { seq: number; id: string } | undefined, limit: number): Promise<LedgerEntry[]> {
  let query = q.selectFrom('ledger_entries').selectAll().where('workspace_id', '=', workspaceId);
  if (after) query = query.where(beforeSeq(after));
  return (await query.orderBy('seq', 'desc').orderBy('id', 'desc').limit(limit).execute()).map((r) => normEntry(r as LedgerEntry));
}

/**
 * The current price of every unit: each unit's greatest version in effect at `now` (a version is
 * in effect from its `effective_from` inclusive, so the price in force during a month is the one
 * at the month's last millisecond, not at the next month's first).
 */
export async function currentPrices(q: Kysely<Database>, now: Date): Promise<Price[]> {
  const rows = (await q.selectFrom('prices').selectAll().where('effective_from', '<=', now.toISOString()).orderBy('unit').orderBy('version', 'desc').execute()) as Price[];
  const seen = new Set<string>();
  return rows
    .filter((r) => (seen.has(r.unit) ? false : (seen.add(r.unit), true)))
    .map((r) => ({ ...r, version: int(r.version), unit_price: int(r.unit_price) }));
}

/** The approval a cause (operation and idempotency key) waits for, if any. */
export async function pendingApprovalByCause(q: Kysely<Database>, workspaceId: string, operationId: string, idempotencyKey: string): Promise<ApprovalRow | undefined> {
  const r = await q
    .selectFrom('approvals')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('operation_id', '=', operationId)
    .where('idempotency_key', '=', idempotencyKey)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return r ? normApproval(r as ApprovalRow) : undefined;
}

export async function insertApproval(trx: Kysely<Database>, a: Omit<ApprovalRow, 'id' | 'seq' | 'status' | 'entry_id' | 'decided_by' | 'decided_at'>, now: Date): Promise<ApprovalRow> {
  const row: ApprovalRow = { ...a, id: newId('apr'), seq: nextSeq(now), status: 'pending', entry_id: null, decided_by: null, decided_at: null };
  await trx.insertInto('approvals').values(row).execute();
  return row;
}

export async function getApproval(q: Kysely<Database>, id: string, workspaceId?: string): Promise<ApprovalRow | undefined> {
  let query = q.selectFrom('approvals').selectAll().where('id', '=', id);
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  const r = await query.executeTakeFirst();
  return r ? normApproval(r as ApprovalRow) : undefined;
}

/**
 * The approval, locked for the rest of trx: a decision checks that it is pending under this lock,
 * so of two concurrent decisions (any process) the second waits and then finds it decided.
 */
export async function lockApproval(trx: Kysely<Database>, id: string): Promise<ApprovalRow | undefined> {
  const [r] = await lockRows(trx, 'approvals', { id });
  return r ? normApproval(r as ApprovalRow) : undefined;
}

export async function decideApproval(trx: Kysely<Database>, id: string, status: 'approved' | 'denied', by: string, entryId: string | null, now: Date): Promise<boolean> {
  const r = await trx
    .updateTable('approvals')
    .set({ status, decided_by: by, decided_at: now.toISOString(), entry_id: entryId })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Withdraws the pending approvals of the resources `resourceIds` (of kind `kind`) picks: the work
 * they held back ended before anyone decided, so no one is asked to (a decision finds them
 * `withdrawn`). Nothing was debited for them: nothing is given back. `by` says why (decided_by).
 * A statement, run in the caller's transaction or sent among others, doing its work only `when`
 * holds; it takes the approvals' row locks first, as a decision does, so the two never deadlock.
 */
export function withdrawApprovals(
  q: Kysely<Database>,
  w: { workspaceId: string; kind: string; resourceIds: SelectQueryBuilder<Database, any, { id: string }>; by: string; now: Date; when?: When },
) {
  return q
    .updateTable('approvals')
    .set({ status: 'withdrawn', decided_by: w.by, decided_at: w.now.toISOString() })
    .where('workspace_id', '=', w.workspaceId)
    .where('status', '=', 'pending')
    .where('resource_kind', '=', w.kind)
    .where('resource_id', 'in', w.resourceIds)
    .$if(w.when !== undefined, (qb) => qb.where(w.when!));
}

export async function pageApprovals(q: Kysely<Database>, workspaceId: string, status: string | undefined, after: { seq: number; id: string } | undefined, limit: number): Promise<ApprovalRow[]> {
  let query = q.selectFrom('approvals').selectAll().where('workspace_id', '=', workspaceId);
  if (status) query = query.where('status', '=', status as ApprovalRow['status']);
  if (after) query = query.where(beforeSeq(after));
  return (await query.orderBy('seq', 'desc').orderBy('id', 'desc').limit(limit).execute()).map((r) => normApproval(r as ApprovalRow));
}

export async function setRules(trx: Kysely<Database>, workspaceId: string, rules: { auto_approve_below?: number | null; monthly_cap?: number | null }, by: string, now: Date): Promise<WalletRow> {
  await lockWallet(trx, workspaceId, now);
  await trx.updateTable('wallets').set({ ...rules, rules_updated_at: now.toISOString(), rules_updated_by: by }).where('workspace_id', '=', workspaceId).execute();
  return readWallet(trx, workspaceId, now);
}

export interface NewSupervision {
  workspace_id: string;
  kind: 'accounts_delivered' | 'report_requested' | 'outreach_enrolled' | 'outreach_step_sent';
  actor: string;
  api_key_id: string | null;
  subject: string | null;
  quantity: number;
  detail: Record<string, unknown>;
  allowed_by: string;
  approval_id?: string | null;
  ledger_entry_id?: string | null;
}

export async function recordSupervision(trx: Kysely<Database>, e: NewSupervision, now: Date): Promise<SupervisionRow> {
  const row: SupervisionRow = {
    ...e,
    id: newId('sup'),
    seq: nextSeq(now),
    detail: JSON.stringify(e.detail),
    approval_id: e.approval_id ?? null,
    ledger_entry_id: e.ledger_entry_id ?? null,
    created_at: now.toISOString(),
  };
  await trx.insertInto('supervision_entries').values(row).execute();
  return row;
}

/** Links the supervision entries of a resource to the ledger entry that later paid for them (an approval). */
export async function linkSupervision(trx: Kysely<Database>, workspaceId: string, subject: string, kind: NewSupervision['kind'], patch: { ledger_entry_id: string; approval_id: string; allowed_by: string }): Promise<void> {
  await trx.updateTable('supervision_entries').set(patch).where('workspace_id', '=', workspaceId).where('subject', '=', subject).where('kind', '=', kind).execute();
}

export interface SupervisionFilter {
  kind?: string;
  apiKeyId?: string;
  since?: string;
  until?: string;
}

export async function pageSupervision(q: Kysely<Database>, workspaceId: string, f: SupervisionFilter, after: { seq: number; id: string } | undefined, limit: number): Promise<SupervisionRow[]> {
  let query = q.selectFrom('supervision_entries').selectAll().where('workspace_id', '=', workspaceId);
  if (f.kind) query = query.where('kind', '=', f.kind);
  if (f.apiKeyId) query = query.where('api_key_id', '=', f.apiKeyId);
  if (f.since) query = query.where('created_at', '>=', f.since);
  if (f.until) query = query.where('created_at', '<', f.until);
  if (after) query = query.where(beforeSeq(after));
  return (await query.orderBy('seq', 'desc').orderBy('id', 'desc').limit(limit).execute()).map((r) => ({ ...(r as SupervisionRow), seq: int(r.seq), quantity: int(r.quantity) }));
}
