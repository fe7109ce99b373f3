/** storelens wallet credit | rules | approve | deny (owners and admins). */
import { isApiProblem } from '../api/problems.js';
import { newId } from '../db/ids.js';
import { getApproval, MONEY_LIMIT, readWallet, setRules } from '../wallet/store.js';
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import type { Config } from '../settings/config.js';
import { BalanceLimitError, credit, CreditKeyReusedError } from '../wallet/billing.js';
import { DecisionError, decide } from '../wallet/approvals.js';
import { formatAmount, parseAmount } from '../wallet/money.js';
import { findWorkspace } from '../workspaces/store.js';
import { output, requireOwnerOrAdmin, requireWorkspace, withAdminDb, writeAsOwnerOrAdmin } from './admin-db.js';

function amountOf(text: string, what: string): number {
  const n = parseAmount(text);
  if (n === null) throw new CliError(`${what}: "${text}" is not an amount (e.g. 50 or 50.00; at most two decimals, no sign)`, 2);
  return n;
}

export async function creditCommand(amount: string, opts: Config<'wallet credit'>, env: Env): Promise<void> {
  const minor = amountOf(amount, 'amount');
  if (minor === 0) throw new CliError('amount: a credit must be more than 0', 2);
  if (!opts.reason.trim()) throw new CliError('--reason must not be empty', 2);
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    await requireOwnerOrAdmin(db, ws, opts.as, 'credit the wallet');
    const now = env.now();
    const key = opts.idempotencyKey ?? newId('cli');
    const entry = await writeAsOwnerOrAdmin(db, ws, opts.as, 'credit the wallet', (trx) => credit(trx, ws.id, minor, opts.reason.trim(), `member:${opts.as}`, key, now)).catch((e: unknown) => {
        if (e instanceof BalanceLimitError) {
          const w = e.wallet;
          throw new CliError(`amount: crediting ${formatAmount(minor)} ${w.currency} would take the balance of ${ws.name} (${formatAmount(w.balance)} ${w.currency}) over the most a wallet holds, ${formatAmount(MONEY_LIMIT)} ${w.currency}; nothing credited`, 1);
        }
        if (!(e instanceof CreditKeyReusedError)) throw e;
        const first = e.first;
        throw new CliError(`--idempotency-key ${key}: already used for a credit of ${formatAmount(first.amount)} ${first.currency} (reason "${first.reason}", entry ${first.id}); nothing credited — a different credit needs a new key`, 2);
      });
    output(
      env,
      opts,
      { workspace_id: ws.id, entry_id: entry.id, amount: entry.amount, currency: entry.currency, balance: entry.balance_after, idempotency_key: entry.idempotency_key },
      `Credited ${formatAmount(entry.amount)} ${entry.currency} to ${ws.name}; balance ${formatAmount(entry.balance_after)} ${entry.currency} (entry ${entry.id})`,
    );
  });
}

const ruleValue = (text: string | undefined, what: string): number | null | undefined => {
  if (text === undefined) return undefined;
  if (text === 'off') return null;
  return amountOf(text, what);
};

export async function rulesCommand(opts: Config<'wallet rules'>, env: Env): Promise<void> {
  const autoApproveBelow = ruleValue(opts.autoApproveBelow, '--auto-approve-below');
  const monthlyCap = ruleValue(opts.monthlyCap, '--monthly-cap');
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    await requireOwnerOrAdmin(db, ws, opts.as, 'set the wallet rules');
    const now = env.now();
    const changes: { auto_approve_below?: number | null; monthly_cap?: number | null } = {};
    if (autoApproveBelow !== undefined) changes.auto_approve_below = autoApproveBelow;
    if (monthlyCap !== undefined) changes.monthly_cap = monthlyCap;
    const w = Object.keys(changes).length
      ? await writeAsOwnerOrAdmin(db, ws, opts.as, 'set the wallet rules', (trx) => setRules(trx, ws.id, changes, `member:${opts.as}`, now))
      : await readWallet(db.kysely, ws.id, now);
    const show = (v: number | null) => (v === null ? 'off' : `${formatAmount(v)} ${w.currency}`);
    output(
      env,
      opts,
      { workspace_id: ws.id, currency: w.currency, auto_approve_below: w.auto_approve_below, monthly_cap: w.monthly_cap },
      `Wallet rules of ${ws.name}: auto-approve below ${show(w.auto_approve_below)}, monthly cap ${show(w.monthly_cap)}`,
    );
  });
}

export async function decideCommand(id: string, verdict: 'approved' | 'denied', opts: Config<'wallet approve'>, env: Env): Promise<void> {
  await withAdminDb(opts, env, async (db) => {
    const a = await getApproval(db.kysely, id);
    if (!a) throw new CliError(`no approval "${id}"`);
    const ws = (await findWorkspace(db.kysely, a.workspace_id))!;
    const action = verdict === 'approved' ? 'approve charges' : 'deny charges';
    await requireOwnerOrAdmin(db, ws, opts.as, action);
    // The modules whose work waits for an approval register their handlers (reports, outreach) when loaded.
    await import('../compose/modules.js');
    let d;
    try {
      d = await writeAsOwnerOrAdmin(db, ws, opts.as, action, (trx) => decide(trx, id, verdict, opts.as, env.now()));
    } catch (e) {
      if (e instanceof DecisionError) throw new CliError(e.message);
      if (isApiProblem(e)) throw new CliError(`cannot approve ${id}: ${e.detail}`, 1);
      throw e;
    }
    output(
      env,
      opts,
      { id: d.approval.id, workspace_id: d.approval.workspace_id, status: d.approval.status, amount: d.approval.amount, currency: d.approval.currency, ledger_entry_id: d.entry?.id ?? null },
      verdict === 'approved'
        ? `Approved ${d.approval.id}: debited ${formatAmount(d.approval.amount)} ${d.approval.currency} (entry ${d.entry!.id})`
        : `Denied ${d.approval.id}: nothing debited`,
    );
  });
}
