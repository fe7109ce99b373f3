/**
 * Table types of the wallet module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { Generated } from 'kysely';

/** A workspace's wallet: money in integer minor units of `currency`; `balance` is the sum of its ledger entries. */
export interface WalletsTable {
  workspace_id: string;
  currency: string;
  balance: Generated<number>;
  plan: string;
  /** Standing rule: a charge of at least this amount waits for an owner's approval (null: none waits). */
  auto_approve_below: number | null;
  /** Standing rule: debits of a calendar month (UTC) may not exceed this (null: no cap); the monthly statement is not counted. */
  monthly_cap: number | null;
  rules_updated_at: string | null;
  rules_updated_by: string | null;
  created_at: string;
  /** The newest ledger entry's seq: the next entry takes ledger_seq + 1 in the UPDATE that moves the balance. */
  ledger_seq: Generated<number>;
  /** The newest ledger entry's created_at (null: no entry yet); a later entry is never dated earlier. */
  ledger_at: string | null;
}

export type LedgerKind = 'credit' | 'debit' | 'refund';

/** The append-only ledger: credits and refunds positive, debits negative. */
export interface LedgerEntriesTable {
  id: string;
  workspace_id: string;
  /** Order in the wallet's ledger, from wallets.ledger_seq: newest first is seq descending. */
  seq: number;
  kind: LedgerKind;
  amount: number;
  currency: string;
  balance_after: number;
  unit: string | null;
  quantity: number | null;
  unit_price: number | null;
  price_version: number | null;
  /** The cause: the operation (or CLI command, or worker step) ... */
  operation_id: string;
  /** ... its idempotency key (unique per workspace and operation) ... */
  idempotency_key: string;
  /** ... and who: `key:<id>`, `member:<email>` or `worker`. */
  actor: string;
  /** For debits: `approval:<id>`, `rule:auto_approve_below`, `rule:no_approval_needed`, `plan:<name>` (the monthly statement). */
  allowed_by: string | null;
  approval_id: string | null;
  refund_of: string | null;
  reason: string | null;
  created_at: string;
}

export interface PricesTable {
  version: number;
  unit: string;
  currency: string;
  unit_price: number;
  description: string;
  effective_from: string;
}

/** `withdrawn`: the work it held back ended before anyone decided (an enrollment stopped); nothing was debited. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'withdrawn';

export interface ApprovalsTable {
  id: string;
  workspace_id: string;
  seq: number;
  status: ApprovalStatus;
  unit: string;
  quantity: number;
  amount: number;
  currency: string;
  price_version: number;
  operation_id: string;
  idempotency_key: string;
  actor: string;
  resource_kind: string | null;
  resource_id: string | null;
  entry_id: string | null;
  decided_by: string | null;
  decided_at: string | null;
  requested_at: string;
}

export interface SupervisionEntriesTable {
  id: string;
  workspace_id: string;
  seq: number;
  kind: string;
  actor: string;
  api_key_id: string | null;
  subject: string | null;
  quantity: number;
  /** JSON object. */
  detail: string;
  allowed_by: string;
  approval_id: string | null;
  ledger_entry_id: string | null;
  created_at: string;
}

/** The wallet tables, by name: added to the workspace database (db/database.ts) below. */
export interface WalletTables {
  wallets: WalletsTable;
  ledger_entries: LedgerEntriesTable;
  prices: PricesTable;
  approvals: ApprovalsTable;
  supervision_entries: SupervisionEntriesTable;
}


declare module '../db/database.js' {
  // The wallet tables join the workspace database (db/database.ts).
  interface Database extends WalletTables {}
}
