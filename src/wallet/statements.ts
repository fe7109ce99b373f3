/**
 * The worker's `statements` task: the monthly statement of accounts delivered beyond the plan's
 * allowance. For every wallet, each closed calendar month (UTC) from the wallet's creation up to
 * last month is billed once: the workspace's accounts whose `delivered_at` falls in the month are
 * counted, and the count beyond the plan's allowance is debited as one ledger entry
 * (`monthly_statement`, keyed `YYYY-MM`) at the price in force at the end of that month. The
 * current month is never billed. The debit pays for what was already delivered, so neither the
 * balance nor the monthly cap refuses it: it may take the balance below zero, and the billable
 * calls are then refused (insufficient-funds) until money is added. A month is looked for and
 * billed under the wallet's row lock, with the ledger's unique cause behind it: exactly once
 * across workers.
 */
import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/database.js';
import { appendEntry, currentPrices, entryByCause, type LedgerEntry, lockWallet, monthStart, PLAN_ALLOWANCES, STATEMENT_OPERATION } from './store.js';
import { nextMonth } from '../core/month.js';
import { formatAmount } from './money.js';

export const STATEMENT_UNIT = 'account_delivered_over_allowance';

/** The first instant of `YYYY-MM` (UTC), as stored times are written. */
const startOf = (month: string): string => `${month}-01T00:00:00.000Z`;
const monthOf = (d: Date): string => d.toISOString().slice(0, 7);

/** The closed months a wallet created at `createdAt` is billed for at `now`: its creation month up to the month before now's. */
export function closedMonths(createdAt: string, now: Date): string[] {
  const current = monthOf(now);
  const months: string[] = [];
  for (let m = createdAt.slice(0, 7); m < current; m = nextMonth(m)) months.push(m);
  return months;
}

/** The last millisecond of a month: the price list in force then is the month's. */
export const monthEnd = (month: string): Date => new Date(Date.parse(startOf(nextMonth(month))) - 1);

/** Accounts of the workspace first delivered to an agent during `month`. */
export async function deliveredIn(q: Kysely<Database>, workspaceId: string, month: string): Promise<number> {
  const r = await q
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('delivered_at', '>=', startOf(month))
    .where('delivered_at', '<', startOf(nextMonth(month)))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export interface StatementOptions {
  now: () => Date;
  log?: (line: string) => void;
  /** Turns true when the process stops: no further workspace is billed. */
  stopping?: () => boolean;
}

/** Bills every closed month not yet billed, in every workspace with a wallet; resolves to the debits it wrote. */
export async function runStatements(db: Db, opts: StatementOptions): Promise<LedgerEntry[]> {
  const now = opts.now();
  const current = monthStart(now);
  const written: LedgerEntry[] = [];
  const wallets = await db.kysely.selectFrom('wallets').select(['workspace_id', 'plan', 'created_at']).orderBy('workspace_id').execute();
  for (const w of wallets) {
    if (opts.stopping?.()) break;
    const months = closedMonths(w.created_at, now);
    if (!months.length) continue;
    const allowance = PLAN_ALLOWANCES[w.plan] ?? 0;
    // One look per workspace: the months whose deliveries exceed the allowance, less those billed.
    const month = sql<string>`substr(delivered_at, 1, 7)`;
    const over = await db.kysely
      .selectFrom('accounts')
      .select([month.as('month'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('workspace_id', '=', w.workspace_id)
      .where('delivered_at', '>=', startOf(months[0]!))
      .where('delivered_at', '<', current)
      .groupBy(month)
      .execute();
    const due = over.filter((r) => Number(r.n) > allowance).map((r) => r.month);
    if (!due.length) continue;
    const billed = new Set(
      (await db.kysely.selectFrom('ledger_entries').select('idempotency_key').where('workspace_id', '=', w.workspace_id).where('operation_id', '=', STATEMENT_OPERATION).execute()).map((r) => r.idempotency_key),
    );
    for (const m of due.filter((x) => !billed.has(x)).sort()) {
      const entry = await billMonth(db, w.workspace_id, m, now);
      if (!entry) continue;
      written.push(entry);
      opts.log?.(`monthly statement of ${m} for workspace ${w.workspace_id}: ${entry.quantity} accounts beyond the allowance, ${formatAmount(-entry.amount)} ${entry.currency}`);
    }
  }
  return written;
}

/**
 * Debits one closed month's overage, or nothing when it is already billed (by this or another
 * worker) or the month stayed within the allowance.
 */
export async function billMonth(db: Db, workspaceId: string, month: string, now: Date): Promise<LedgerEntry | undefined> {
  if (startOf(month) >= monthStart(now)) throw new Error(`${month} is not a closed month at ${now.toISOString()}`);
  // The month's entry is looked for under the wallet's row lock: a second worker waits for the
  // first's commit and then finds it (the ledger's unique cause stays the backstop: a violation
  // would fail this write as a whole, never be caught and continued in its transaction).
  return db.write(async (trx) => {
    const wallet = await lockWallet(trx, workspaceId, now);
    if (await entryByCause(trx, workspaceId, STATEMENT_OPERATION, month)) return undefined;
    const allowance = PLAN_ALLOWANCES[wallet.plan] ?? 0;
    const delivered = await deliveredIn(trx, workspaceId, month);
    const overage = delivered - allowance;
    if (overage <= 0) return undefined;
    const price = (await currentPrices(trx, monthEnd(month))).find((p) => p.unit === STATEMENT_UNIT);
    if (!price) throw new Error(`no price of ${STATEMENT_UNIT} was in force at the end of ${month}`);
    if (price.currency !== wallet.currency) throw new Error(`the price of ${STATEMENT_UNIT} in force at the end of ${month} is in ${price.currency}, the wallet of ${workspaceId} in ${wallet.currency}`);
    return appendEntry(
      trx,
      wallet,
      {
        kind: 'debit',
        amount: -price.unit_price * overage,
        unit: STATEMENT_UNIT,
        quantity: overage,
        unit_price: price.unit_price,
        price_version: price.version,
        operation_id: STATEMENT_OPERATION,
        idempotency_key: month,
        actor: 'worker',
        allowed_by: `plan:${wallet.plan}`,
        reason: `statement of ${month}: ${delivered} accounts delivered to agents, ${allowance} included in the ${wallet.plan} plan, ${overage} beyond it`,
      },
      now,
    );
  });
}
