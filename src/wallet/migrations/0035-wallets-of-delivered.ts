/**
 * 0035_wallets_of_delivered: every workspace that delivered accounts to an agent has a wallet.
 * The monthly statement bills the wallets' closed months since each was opened, and a wallet was
 * opened only by a credit or a charge, so the deliveries of a workspace that never added money
 * were never billed. A delivery opens the wallet now (src/accounts/routes.ts, openWallet).
 *
 * It changes data, not only schema: a workspace with delivered accounts and no wallet gets one
 * opened now, so its deliveries are billed from this month on (earlier months stay unbilled, as
 * months before a wallet existed always were).
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    const at = new Date().toISOString();
    await sql`insert into wallets (workspace_id, currency, balance, plan, auto_approve_below, monthly_cap, rules_updated_at, rules_updated_by, created_at, ledger_seq, ledger_at)
      select w.id, 'USD', 0, 'standard', null, null, null, null, ${at}, 0, null from workspaces w
      where exists (select 1 from accounts a where a.workspace_id = w.id and a.delivered_at is not null)
        and not exists (select 1 from wallets x where x.workspace_id = w.id)`.execute(db);
  },
};
