/**
 * Billing: the one function every billable operation calls inside its transaction. A charge
 * locks the wallet row, prices the unit from the current price list, and then either debits
 * the wallet (one ledger entry naming its cause), opens an approval the owner decides (the
 * standing auto-approve rule), or refuses: 409 insufficient-funds or spend-cap-reached. The
 * ledger's unique cause (workspace, operation, idempotency key) means a cause is debited once;
 * a replayed API call never reaches the handler at all.
 */
import type { Kysely } from 'kysely';
import { ApiProblem } from '../api/problems.js';
import type { Database } from '../db/database.js';
import {
  type ApprovalRow,
  appendEntry,
  currentPrices,
  entryByCause,
  getEntry,
  insertApproval,
  pendingApprovalByCause,
  type LedgerEntry,
  lockWallet,
  MONEY_LIMIT,
  monthSpend,
  type WalletRow,
} from './store.js';

export const BILLABLE_UNITS = ['growth_report', 'outreach_enrollment', 'outreach_step', 'account_delivered_over_allowance'] as const;
export type BillableUnit = (typeof BILLABLE_UNITS)[number];

export interface ChargeRequest {
  workspaceId: string;
  unit: BillableUnit;
  quantity: number;
  /** The cause: operation (or worker step) … */
  operationId: string;
  /** … its idempotency key … */
  idempotencyKey: string;
  /** … and who: `key:<id>`, `member:<email>`, `worker`. */
  actor: string;
  now: Date;
  /** The resource an approval would release (kind and id), when the charge may wait for one. */
  resource?: { kind: 'growth_report' | 'outreach_enrollment'; id: string };
  /** Never wait for an approval (a step of an approved enrollment): debit or refuse. */
  noApproval?: boolean;
}

export type Charge = { status: 'debited'; entry: LedgerEntry; allowedBy: string } | { status: 'pending'; approval: ApprovalRow };

const money = (minor: number, currency: string): string => `${(minor / 100).toFixed(2)} ${currency}`;

/** Rule that lets a debit through without an approval. */
const ruleOf = (w: WalletRow): string => (w.auto_approve_below === null ? 'rule:no_approval_needed' : 'rule:auto_approve_below');

export async function charge(tx: Kysely<Database>, req: ChargeRequest): Promise<Charge> {
  if (!Number.isSafeInteger(req.quantity) || req.quantity <= 0) throw new Error(`charge quantity must be a positive whole number (got ${req.quantity})`);
  const wallet = await lockWallet(tx, req.workspaceId, req.now);
  const already = await entryByCause(tx, req.workspaceId, req.operationId, req.idempotencyKey);
  // The cause may already wait for a decision (under the wallet lock; one pending approval per
  // cause is a unique index): the same approval, whatever the rules or the balance say now.
  const waiting = already ? undefined : await pendingApprovalByCause(tx, req.workspaceId, req.operationId, req.idempotencyKey);
  // A charge for a new resource (a report, an enrollment) whose cause is charged or waiting
  // already: its Idempotency-Key was used before, past the window in which the request itself is
  // replayed. Refused, so no second resource runs on the first one's debit or approval.
  if (req.resource && (already || (waiting && waiting.resource_id !== req.resource.id))) {
    throw new ApiProblem('idempotency-key-reused', `This Idempotency-Key was already used for ${req.operationId}${waiting ? ` (approval ${waiting.id} waits for a decision)` : ` (debited in entry ${already!.id})`}; new work needs a new key.`);
  }
  if (already) return { status: 'debited', entry: already, allowedBy: already.allowed_by ?? ruleOf(wallet) };
  if (waiting) return { status: 'pending', approval: waiting };
  const price = (await currentPrices(tx, req.now)).find((p) => p.unit === req.unit);
  // A 503 says when to retry (openapi.json promises Retry-After): an operator sets the price.
  if (!price) throw new ApiProblem('service-unavailable', `No price is set for ${req.unit}; try again later.`, { 'retry-after': '60' });
  // Amounts are minor units of the wallet's currency: a price in another one is never charged.
  if (price.currency !== wallet.currency) throw new ApiProblem('service-unavailable', `No price in ${wallet.currency} is set for ${req.unit}; try again later.`, { 'retry-after': '60' });
  const amount = price.unit_price * req.quantity;
  await refuseUnfunded(tx, wallet, amount, req.now);
  if (!req.noApproval && wallet.auto_approve_below !== null && amount >= wallet.auto_approve_below) {
    const approval = await insertApproval(
      tx,
      {
        workspace_id: req.workspaceId,
        unit: req.unit,
        quantity: req.quantity,
        amount,
        currency: wallet.currency,
        price_version: price.version,
        operation_id: req.operationId,
        idempotency_key: req.idempotencyKey,
        actor: req.actor,
        resource_kind: req.resource?.kind ?? null,
        resource_id: req.resource?.id ?? null,
        requested_at: req.now.toISOString(),
      },
      req.now,
    );
    return { status: 'pending', approval };
  }
  const allowedBy = ruleOf(wallet);
  const entry = await appendEntry(
    tx,
    wallet,
    {
      kind: 'debit',
      amount: -amount,
      unit: req.unit,
      quantity: req.quantity,
      unit_price: price.unit_price,
      price_version: price.version,
      operation_id: req.operationId,
      idempotency_key: req.idempotencyKey,
      actor: req.actor,
      allowed_by: allowedBy,
    },
    req.now,
  );
  return { status: 'debited', entry, allowedBy };
}

/** 409 when the month's cap or the balance does not cover `amount`. */
async function refuseUnfunded(tx: Kysely<Database>, wallet: WalletRow, amount: number, now: Date): Promise<void> {
  if (wallet.monthly_cap !== null) {
    const spent = await monthSpend(tx, wallet.workspace_id, now);
    if (spent + amount > wallet.monthly_cap) {
      throw new ApiProblem(
        'spend-cap-reached',
        `This costs ${money(amount, wallet.currency)}; ${money(spent, wallet.currency)} of the monthly cap of ${money(wallet.monthly_cap, wallet.currency)} is spent.`,
        {},
        { amount, currency: wallet.currency, spent_this_month: spent, monthly_cap: wallet.monthly_cap },
      );
    }
  }
  if (wallet.balance < amount) {
    throw new ApiProblem(
      'insufficient-funds',
      `This costs ${money(amount, wallet.currency)}; the wallet holds ${money(wallet.balance, wallet.currency)}.`,
      {},
      { amount, currency: wallet.currency, balance: wallet.balance },
    );
  }
}

/**
 * Debits an approved approval (its price as quoted) or throws the 409 the wallet answers now.
 * Run by the approval decision, in its transaction.
 */
export async function debitApproval(tx: Kysely<Database>, a: ApprovalRow, decidedBy: string, now: Date): Promise<LedgerEntry> {
  const wallet = await lockWallet(tx, a.workspace_id, now);
  const already = await entryByCause(tx, a.workspace_id, a.operation_id, a.idempotency_key);
  if (already) return already;
  await refuseUnfunded(tx, wallet, a.amount, now);
  return appendEntry(
    tx,
    wallet,
    {
      kind: 'debit',
      amount: -a.amount,
      unit: a.unit,
      quantity: a.quantity,
      unit_price: a.amount / a.quantity,
      price_version: a.price_version,
      operation_id: a.operation_id,
      idempotency_key: a.idempotency_key,
      actor: a.actor,
      allowed_by: `approval:${a.id}`,
      approval_id: a.id,
      reason: `approved by ${decidedBy}`,
    },
    now,
  );
}

/** Gives back a debit (once: a second refund of the same entry returns the first). */
export async function refund(tx: Kysely<Database>, entryId: string, reason: string, now: Date): Promise<LedgerEntry> {
  const debit = await getEntry(tx, undefined, entryId);
  if (!debit || debit.kind !== 'debit') throw new Error(`no debit ${entryId} to refund`);
  const wallet = await lockWallet(tx, debit.workspace_id, now);
  const key = `refund:${debit.id}`;
  const already = await entryByCause(tx, debit.workspace_id, 'refund', key);
  if (already) return already;
  return appendEntry(
    tx,
    wallet,
    {
      kind: 'refund',
      amount: -debit.amount,
      unit: debit.unit,
      quantity: debit.quantity,
      unit_price: debit.unit_price,
      price_version: debit.price_version,
      operation_id: 'refund',
      idempotency_key: key,
      actor: 'service',
      refund_of: debit.id,
      reason,
    },
    now,
  );
}

/** A credit from an owner or admin (the CLI): positive minor units. */
export async function credit(tx: Kysely<Database>, workspaceId: string, amount: number, reason: string, actor: string, idempotencyKey: string, now: Date): Promise<LedgerEntry> {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error('a credit is a positive whole number of minor units');
  const wallet = await lockWallet(tx, workspaceId, now);
  const already = await entryByCause(tx, workspaceId, 'wallet_credit', idempotencyKey);
  if (already && (already.amount !== amount || already.reason !== reason)) throw new CreditKeyReusedError(idempotencyKey, already);
  if (already) return already;
  if (wallet.balance + amount > MONEY_LIMIT) throw new BalanceLimitError(wallet, amount);
  return appendEntry(tx, wallet, { kind: 'credit', amount, operation_id: 'wallet_credit', idempotency_key: idempotencyKey, actor, reason }, now);
}

/** A credit that would take the balance past MONEY_LIMIT (checked under the wallet row's lock): nothing is credited. */
export class BalanceLimitError extends Error {
  constructor(
    readonly wallet: WalletRow,
    readonly amount: number,
  ) {
    super(`a credit of ${amount} minor units would take the balance (${wallet.balance}) past the most a wallet holds, ${MONEY_LIMIT} minor units`);
    this.name = 'BalanceLimitError';
  }
}

/** A credit's idempotency key used again for a different credit: the first one stands, nothing is added. */
export class CreditKeyReusedError extends Error {
  constructor(
    readonly key: string,
    readonly first: LedgerEntry,
  ) {
    super(`idempotency key ${key} already credited ${first.amount} minor units (reason "${first.reason}", entry ${first.id}); a different credit needs a new key`);
    this.name = 'CreditKeyReusedError';
  }
}
