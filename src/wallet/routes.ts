/**
 * Wallet and supervision reads (read:wallet): balance, the ledger, the price list, approvals,
 * standing rules, and what keys and agents did on the workspace's behalf. Money is integer
 * minor units of `currency`. Owners and admins change the wallet from the CLI (`storelens wallet`).
 */
import { z } from 'zod';
import {
  type ApprovalRow,
  currentPrices,
  type LedgerEntry,
  monthSpend,
  PLAN_ALLOWANCES,
  pageApprovals,
  pageLedger,
  pageSupervision,
  readWallet,
  type SupervisionRow,
} from './store.js';
import { defineRoute } from '../api/route-def.js';
import { page, pageQuery } from '../api/schemas.js';
import { seqListRoute, seqPager } from '../api/seq-page.js';

const Minor = (what: string) => z.int().describe(`${what}, in minor units of the currency (cents for USD)`);

const Rules = z.object({
  object: z.literal('wallet_rules'),
  currency: z.string(),
  auto_approve_below: Minor('A charge of at least this waits for an owner\'s approval (202 with a pending approval); null: no charge waits').nullable(),
  monthly_cap: Minor("Debits of a calendar month (UTC) never exceed this (409 spend-cap-reached); null: no cap").nullable(),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});

const Wallet = z.object({
  object: z.literal('wallet'),
  currency: z.string().describe('ISO 4217 code'),
  balance: Minor('The sum of every ledger entry'),
  spent_this_month: Minor('Debits less refunds in the current calendar month (UTC), not counting the monthly statement (which bills the previous month)'),
  monthly_cap: Minor('The standing monthly cap').nullable(),
  auto_approve_below: Minor('The standing auto-approve amount').nullable(),
  plan: z.object({ name: z.string(), accounts_allowance: z.int().describe('Accounts delivered per month before each further one is billable (billed once the month ends, as one monthly_statement debit)') }),
});

const LedgerItem = z.object({
  object: z.literal('ledger_entry'),
  id: z.string(),
  kind: z.enum(['credit', 'debit', 'refund']),
  amount: Minor('Signed: credits and refunds positive, debits negative'),
  currency: z.string(),
  balance_after: Minor('The balance once this entry was written'),
  unit: z.string().nullable().describe('The billable unit, for debits and refunds'),
  quantity: z.int().nullable(),
  unit_price: z.int().nullable(),
  price_version: z.int().nullable(),
  operation_id: z.string().describe('The operation (or CLI command, or worker step) that caused the entry'),
  idempotency_key: z.string().describe('The request identity of the cause'),
  actor: z.string().describe('`key:<id>`, `member:<email>`, `worker` or `service`'),
  allowed_by: z.string().nullable().describe('For a debit: `approval:<id>`, `rule:auto_approve_below`, `rule:no_approval_needed`, or `plan:<name>` for the monthly statement of accounts delivered beyond the plan allowance'),
  approval_id: z.string().nullable(),
  refund_of: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: z.string(),
});

const PriceItem = z.object({
  object: z.literal('price'),
  unit: z.string(),
  unit_price: Minor('Price of one unit'),
  currency: z.string(),
  version: z.int().describe('Version of the price list this price belongs to'),
  description: z.string(),
  effective_from: z.string(),
});

const Approval = z.object({
  object: z.literal('approval'),
  id: z.string(),
  status: z.enum(['pending', 'approved', 'denied', 'withdrawn']).describe('`withdrawn`: the work it held back ended before anyone decided (an enrollment stopped); nothing is debited and it can no longer be decided'),
  unit: z.string(),
  quantity: z.int(),
  amount: Minor('What it costs once approved'),
  currency: z.string(),
  operation_id: z.string(),
  idempotency_key: z.string(),
  actor: z.string(),
  resource: z.object({ kind: z.string(), id: z.string() }).nullable(),
  ledger_entry_id: z.string().nullable(),
  requested_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by: z.string().nullable(),
});

const SupervisionItem = z.object({
  object: z.literal('supervision_entry'),
  id: z.string(),
  kind: z.enum(['accounts_delivered', 'report_requested', 'outreach_enrolled', 'outreach_step_sent']),
  actor: z.string().describe('`key:<id>` (an API key) or `member:<email>`; steps the worker sends name the key that enrolled the store'),
  api_key_id: z.string().nullable(),
  subject: z.string().nullable().describe('The report, enrollment or step, or the first store of a delivered page'),
  quantity: z.int(),
  detail: z.record(z.string(), z.unknown()),
  allowed_by: z.string().describe('What allowed it: `approval:<id>`, `rule:auto_approve_below`, `rule:no_approval_needed`, `plan:allowance` or `pending:<approval id>`'),
  approval_id: z.string().nullable(),
  ledger_entry_id: z.string().nullable(),
  created_at: z.string(),
});

const toEntry = (e: LedgerEntry): z.output<typeof LedgerItem> => ({
  object: 'ledger_entry',
  id: e.id,
  kind: e.kind,
  amount: e.amount,
  currency: e.currency,
  balance_after: e.balance_after,
  unit: e.unit,
  quantity: e.quantity,
  unit_price: e.unit_price,
  price_version: e.price_version,
  operation_id: e.operation_id,
  idempotency_key: e.idempotency_key,
  actor: e.actor,
  allowed_by: e.allowed_by,
  approval_id: e.approval_id,
  refund_of: e.refund_of,
  reason: e.reason,
  created_at: e.created_at,
});

export const toApproval = (a: ApprovalRow): z.output<typeof Approval> => ({
  object: 'approval',
  id: a.id,
  status: a.status,
  unit: a.unit,
  quantity: a.quantity,
  amount: a.amount,
  currency: a.currency,
  operation_id: a.operation_id,
  idempotency_key: a.idempotency_key,
  actor: a.actor,
  resource: a.resource_kind && a.resource_id ? { kind: a.resource_kind, id: a.resource_id } : null,
  ledger_entry_id: a.entry_id,
  requested_at: a.requested_at,
  decided_at: a.decided_at,
  decided_by: a.decided_by,
});

const toSupervision = (s: SupervisionRow): z.output<typeof SupervisionItem> => ({
  object: 'supervision_entry',
  id: s.id,
  kind: s.kind as z.output<typeof SupervisionItem>['kind'],
  actor: s.actor,
  api_key_id: s.api_key_id,
  subject: s.subject,
  quantity: s.quantity,
  detail: JSON.parse(s.detail) as Record<string, unknown>,
  allowed_by: s.allowed_by,
  approval_id: s.approval_id,
  ledger_entry_id: s.ledger_entry_id,
  created_at: s.created_at,
});

const TIME = z.iso.datetime({ offset: true });
const common = { tag: 'Wallet', scope: 'read:wallet', kind: 'read', planned: 'available' } as const;

export const walletRoutes = [
  defineRoute({
    ...common,
    operationId: 'get_wallet',
    method: 'GET',
    path: '/wallet',
    summary: 'Read the wallet: balance, spend this month, cap and plan',
    response: Wallet,
    async handler({ db, workspace, now }) {
      const w = await readWallet(db.kysely, workspace.id, now);
      const body: z.output<typeof Wallet> = {
        object: 'wallet',
        currency: w.currency,
        balance: w.balance,
        spent_this_month: await monthSpend(db.kysely, workspace.id, now),
        monthly_cap: w.monthly_cap,
        auto_approve_below: w.auto_approve_below,
        plan: { name: w.plan, accounts_allowance: PLAN_ALLOWANCES[w.plan] ?? 0 },
      };
      return { status: 200, body };
    },
  }),
  seqListRoute({
    ...common,
    operationId: 'list_wallet_usage',
    path: '/wallet/usage',
    summary: 'List the ledger: every debit, credit and refund with its cause',
    description: 'The append-only ledger, newest first. Every entry names the operation, idempotency key and actor that caused it; the balance is the sum of all entries.',
    item: LedgerItem,
    list: 'wallet_usage',
    rows: pageLedger,
    toItem: toEntry,
  }),
  defineRoute({
    ...common,
    operationId: 'get_wallet_pricing',
    method: 'GET',
    path: '/wallet/pricing',
    summary: 'Read the current price list',
    description: 'The price of every billable unit (growth report, outreach enrollment, outreach step, account delivered beyond the plan allowance), each with the version of the price list it belongs to.',
    response: z.object({ object: z.literal('list'), data: z.array(PriceItem), next_cursor: z.null() }),
    async handler({ db, now }) {
      const data = (await currentPrices(db.kysely, now)).map((p) => ({ object: 'price' as const, unit: p.unit, unit_price: p.unit_price, currency: p.currency, version: p.version, description: p.description, effective_from: p.effective_from }));
      return { status: 200, body: { object: 'list' as const, data, next_cursor: null } };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_wallet_approvals',
    method: 'GET',
    path: '/wallet/approvals',
    summary: 'List approvals (charges waiting for, or decided by, an owner)',
    description: 'Newest first. Owners and admins decide pending ones with `storelens wallet approve|deny ID`.',
    query: z.strictObject({ ...pageQuery, status: z.enum(['pending', 'approved', 'denied', 'withdrawn']).optional().describe('Only approvals in this state') }),
    response: page(Approval),
    problems: [400],
    async handler({ db, workspace, query, cursorSecret }) {
      const p = seqPager(cursorSecret, workspace.id, 'wallet_approvals', { status: query.status }, query.cursor);
      return { status: 200, body: p.page(await pageApprovals(db.kysely, workspace.id, query.status, p.after, query.limit + 1), query.limit, toApproval) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'get_wallet_rules',
    method: 'GET',
    path: '/wallet/rules',
    summary: 'Read the standing rules (auto-approve amount, monthly cap)',
    response: Rules,
    async handler({ db, workspace, now }) {
      const w = await readWallet(db.kysely, workspace.id, now);
      return { status: 200, body: { object: 'wallet_rules' as const, currency: w.currency, auto_approve_below: w.auto_approve_below, monthly_cap: w.monthly_cap, updated_at: w.rules_updated_at, updated_by: w.rules_updated_by } };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'get_supervision',
    method: 'GET',
    path: '/supervision',
    summary: 'What agents and keys did on the workspace\'s behalf',
    description:
      'Accounts delivered, reports requested, outreach enrollments and steps sent, newest first; each names the key or member, what allowed it (an approval or a standing rule) and its ledger entry. Supervision reads use scope read:wallet (approvals and standing rules are supervision data).',
    query: z.strictObject({
      ...pageQuery,
      kind: z.enum(['accounts_delivered', 'report_requested', 'outreach_enrolled', 'outreach_step_sent']).optional().describe('Only entries of this kind'),
      key_id: z.string().min(1).max(100).optional().describe('Only what this API key did'),
      since: TIME.optional().describe('Only entries at or after this time (ISO 8601)'),
      until: TIME.optional().describe('Only entries before this time (ISO 8601)'),
    }),
    response: page(SupervisionItem),
    problems: [400],
    async handler({ db, workspace, query, cursorSecret }) {
      const iso = (t: string | undefined) => (t === undefined ? undefined : new Date(t).toISOString());
      const f = { kind: query.kind, apiKeyId: query.key_id, since: iso(query.since), until: iso(query.until) };
      const p = seqPager(cursorSecret, workspace.id, 'supervision', f, query.cursor);
      return { status: 200, body: p.page(await pageSupervision(db.kysely, workspace.id, f, p.after, query.limit + 1), query.limit, toSupervision) };
    },
  }),
];
