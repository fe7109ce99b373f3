/**
 * Migration 0035_wallets_of_delivered over data written before it: a workspace that delivered
 * accounts to an agent but never added money had no wallet, so the monthly statement never billed
 * it; it gets a wallet opened at the migration, and the others are left as they were.
 */
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../helpers/db.js';

const { db, before, after } = databaseBeforeMigration('0035');

describe('migration 0035 over workspaces without a wallet', () => {
  it('opens a wallet, empty and dated now, for each workspace with delivered accounts and none', async () => {
    await before();
    const at = '2026-01-01T00:00:00.000Z';
    for (const id of ['ws_delivered', 'ws_undelivered', 'ws_funded']) await db.insertInto('workspaces').values({ id, name: id, created_at: at }).execute();
    const account = (workspace_id: string, store_id: string, delivered_at: string | null) => ({ workspace_id, store_id, status: 'open', delivered_to_agent: delivered_at ? 1 : 0, delivered_at, updated_at: at });
    await db.insertInto('accounts').values([account('ws_delivered', 's1', '2026-01-05T00:00:00.000Z'), account('ws_undelivered', 's1', null), account('ws_funded', 's1', '2026-01-05T00:00:00.000Z')]).execute();
    await db.insertInto('wallets').values({ workspace_id: 'ws_funded', currency: 'USD', balance: 700, plan: 'standard', created_at: at, ledger_seq: 1, ledger_at: at }).execute();

    const started = new Date().toISOString();
    expect(await after()).toContain('0035_wallets_of_delivered');

    const wallets = await db.selectFrom('wallets').selectAll().orderBy('workspace_id').execute();
    expect(wallets.map((w) => [w.workspace_id, Number(w.balance), w.plan, w.currency])).toEqual([
      ['ws_delivered', 0, 'standard', 'USD'],
      ['ws_funded', 700, 'standard', 'USD'],
    ]);
    expect(wallets[0].created_at >= started).toBe(true);
    expect(wallets[1].created_at).toBe(at);
  });
});
