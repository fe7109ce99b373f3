/**
 * The monthly statement on SQLite and PostgreSQL: each closed month's accounts delivered beyond
 * the plan's allowance are debited once, at the price in force at the month's end, never the
 * current month, never twice (two workers racing), never counting another workspace's
 * deliveries; the debit may take the balance below zero and shows in GET /wallet/usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markDelivered } from '../../src/accounts/store.js';
import { monthSpend, PLAN_ALLOWANCES, readWallet } from '../../src/wallet/store.js';
import { startBackground } from '../../src/compose/background.js';
import { charge, credit } from '../../src/wallet/billing.js';
import { billMonth, closedMonths, monthEnd, runStatements } from '../../src/wallet/statements.js';
import { seedAccounts } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';

import { apiKey, call, startApi, workspace, type Harness } from '../helpers/api.js';

const at = (iso: string) => new Date(iso);

describe('the months a statement bills', () => {
  it('runs from the wallet’s creation month up to last month, never the current one', () => {
    expect(closedMonths('2026-10-20T08:00:00.000Z', at('2026-12-02T00:00:00Z'))).toEqual(['2026-10', '2026-11']);
    expect(closedMonths('2026-11-01T00:00:00.000Z', at('2026-11-30T23:59:59.999Z'))).toEqual([]);
    expect(closedMonths('2026-12-31T23:00:00.000Z', at('2027-02-01T00:00:00Z'))).toEqual(['2026-12', '2027-01']);
  });

  it('prices a month at its last millisecond', () => {
    expect(monthEnd('2026-10').toISOString()).toBe('2026-10-31T23:59:59.999Z');
    expect(monthEnd('2026-12').toISOString()).toBe('2026-12-31T23:59:59.999Z');
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`monthly statement on ${d.label}`, () => {
    let h: Harness;
    let stores = 0;

    /** A workspace whose wallet was opened (and credited) at `openedAt`. */
    async function withWallet(openedAt: string, balance = 1000): Promise<string> {
      const ws = await workspace(h.db);
      await h.db.write((trx) => credit(trx, ws.id, balance, 'top-up', 'member:owner@example.com', `open-${ws.id}`, at(openedAt)));
      return ws.id;
    }
    /** `n` accounts of the workspace, delivered to an agent at `when`. */
    async function deliver(workspaceId: string, n: number, when: string): Promise<void> {
      const ids = Array.from({ length: n }, () => `store-${++stores}`);
      await seedAccounts(h.db, workspaceId, ids.map((store_id) => ({ store_id, score: 0.5 })));
      await h.db.write((trx) => markDelivered(trx, workspaceId, ids, at(when)));
    }
    const statements = (workspaceId: string) =>
      h.db.kysely.selectFrom('ledger_entries').selectAll().where('workspace_id', '=', workspaceId).where('operation_id', '=', 'monthly_statement').execute();
    const run = (now: string) => runStatements(h.db, { now: () => at(now) });

    beforeAll(async () => {
      h = await startApi(d.name, { operations: { get_wallet: 'available', list_wallet_usage: 'available', list_accounts: 'available' }, poolSize: 4 });
      // A price rise from November: October is still billed at the price in force on its last day.
      await h.db.write((trx) =>
        trx.insertInto('prices').values({ version: 2, unit: 'account_delivered_over_allowance', currency: 'USD', unit_price: 3, description: 'test price rise', effective_from: '2026-11-01T00:00:00.000Z' }).execute(),
      );
    });
    afterAll(async () => {
      await h?.close();
    });

    it('debits a closed month’s accounts beyond the allowance once, at the price in force at its end, and shows it in the usage', async () => {
      expect(PLAN_ALLOWANCES.standard).toBe(1000);
      const ws = await withWallet('2026-10-01T00:00:00.000Z');
      await deliver(ws, 1000, '2026-10-05T12:00:00.000Z');
      await deliver(ws, 3, '2026-10-31T23:59:59.999Z');
      await deliver(ws, 10, '2026-11-01T00:00:00.000Z');

      const written = await run('2026-11-15T09:00:00.000Z');
      expect(written.filter((e) => e.workspace_id === ws)).toHaveLength(1);
      const rows = await statements(ws);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ kind: 'debit', unit: 'account_delivered_over_allowance', idempotency_key: '2026-10', actor: 'worker', allowed_by: 'plan:standard' });
      expect([Number(rows[0]!.amount), Number(rows[0]!.quantity), Number(rows[0]!.unit_price), Number(rows[0]!.price_version)]).toEqual([-6, 3, 2, 1]);
      expect(rows[0]!.reason).toBe('statement of 2026-10: 1003 accounts delivered to agents, 1000 included in the standard plan, 3 beyond it');

      expect((await run('2026-11-15T09:05:00.000Z')).filter((e) => e.workspace_id === ws)).toEqual([]);
      // November (10 accounts) is within the allowance: no entry when it closes.
      expect((await run('2026-12-02T00:00:00.000Z')).filter((e) => e.workspace_id === ws)).toEqual([]);
      expect(await statements(ws)).toHaveLength(1);
      expect((await readWallet(h.db.kysely, ws, new Date())).balance).toBe(1000 - 6);

      const key = await apiKey(h.db, ws, ['read:wallet']);
      const usage = await call(h.base, 'GET', '/wallet/usage', { key });
      expect(usage.status).toBe(200);
      expect(usage.body.data[0]).toEqual(
        expect.objectContaining({
          kind: 'debit',
          amount: -6,
          balance_after: 994,
          unit: 'account_delivered_over_allowance',
          quantity: 3,
          unit_price: 2,
          price_version: 1,
          operation_id: 'monthly_statement',
          idempotency_key: '2026-10',
          actor: 'worker',
          allowed_by: 'plan:standard',
          reason: 'statement of 2026-10: 1003 accounts delivered to agents, 1000 included in the standard plan, 3 beyond it',
        }),
      );
    });

    it('never bills the current month, and bills it at its own price once it closes', async () => {
      const ws = await withWallet('2026-11-01T00:00:00.000Z');
      await deliver(ws, 1001, '2026-11-20T00:00:00.000Z');
      expect((await run('2026-11-30T23:59:59.999Z')).filter((e) => e.workspace_id === ws)).toEqual([]);
      await expect(billMonth(h.db, ws, '2026-11', at('2026-11-30T23:59:59.999Z'))).rejects.toThrow(/not a closed month/);
      expect(await statements(ws)).toHaveLength(0);
      const [entry] = (await run('2026-12-01T00:00:00.000Z')).filter((e) => e.workspace_id === ws);
      expect(entry).toMatchObject({ idempotency_key: '2026-11', quantity: 1, unit_price: 3, price_version: 2, amount: -3 });
    });

    it('bills only months since the wallet was opened', async () => {
      const ws = await withWallet('2026-11-10T00:00:00.000Z');
      await deliver(ws, 1001, '2026-10-20T00:00:00.000Z');
      expect((await run('2026-12-02T00:00:00.000Z')).filter((e) => e.workspace_id === ws)).toEqual([]);
    });

    it('bills a workspace that never added money: the first delivery opens its wallet', async () => {
      const ws = (await workspace(h.db)).id;
      const ids = Array.from({ length: 1001 }, (_, i) => `never-funded-${String(i).padStart(4, '0')}`);
      await seedAccounts(h.db, ws, ids.map((store_id) => ({ store_id, score: 0.5 })));
      const key = await apiKey(h.db, ws, ['read:accounts', 'read:wallet']);
      h.clock.set('2026-10-20T12:00:00.000Z');
      let cursor: string | null = null;
      let delivered = 0;
      do {
        const r = await call(h.base, 'GET', `/accounts?filter=all&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
        expect(r.status).toBe(200);
        delivered += r.body.data.length;
        cursor = r.body.next_cursor;
      } while (cursor);
      expect(delivered).toBe(1001);

      const written = (await run('2026-11-15T09:00:00.000Z')).filter((e) => e.workspace_id === ws);
      expect(written).toEqual([expect.objectContaining({ idempotency_key: '2026-10', quantity: 1, amount: -2, balance_after: -2 })]);
      expect((await call(h.base, 'GET', '/wallet', { key })).body).toMatchObject({ balance: -2 });
    });

    it('writes one entry when two workers bill the same month at once', async () => {
      const ws = await withWallet('2026-10-01T00:00:00.000Z');
      await deliver(ws, 1002, '2026-10-10T00:00:00.000Z');
      const [a, b] = await Promise.all([run('2026-11-15T00:00:00.000Z'), run('2026-11-15T00:00:00.000Z')]);
      expect([...a, ...b].filter((e) => e.workspace_id === ws)).toHaveLength(1);
      const both = await Promise.all([billMonth(h.db, ws, '2026-10', at('2026-11-16T00:00:00Z')), billMonth(h.db, ws, '2026-10', at('2026-11-16T00:00:00Z'))]);
      expect(both).toEqual([undefined, undefined]);
      expect(await statements(ws)).toHaveLength(1);
      expect((await readWallet(h.db.kysely, ws, new Date())).balance).toBe(1000 - 4);
    });

    it('never counts another workspace’s deliveries', async () => {
      const a = await withWallet('2026-10-01T00:00:00.000Z');
      const b = await withWallet('2026-10-01T00:00:00.000Z');
      await deliver(a, 600, '2026-10-10T00:00:00.000Z');
      await deliver(b, 600, '2026-10-10T00:00:00.000Z');
      await run('2026-11-15T00:00:00.000Z');
      expect(await statements(a)).toHaveLength(0);
      expect(await statements(b)).toHaveLength(0);
    });

    it('may take the balance below zero; billable calls are then refused until money is added, and the monthly cap does not count it', async () => {
      const ws = await withWallet('2026-10-01T00:00:00.000Z', 1);
      await deliver(ws, 1010, '2026-10-10T00:00:00.000Z');
      await run('2026-11-15T00:00:00.000Z');
      expect((await readWallet(h.db.kysely, ws, new Date())).balance).toBe(1 - 20);
      const now = at('2026-11-15T01:00:00.000Z');
      const report = (key: string) => h.db.write((trx) => charge(trx, { workspaceId: ws, unit: 'growth_report', quantity: 1, operationId: 'request_growth_report', idempotencyKey: key, actor: 'key:test', now }));
      await expect(report('r1')).rejects.toMatchObject({ kind: 'insufficient-funds' });
      expect(await monthSpend(h.db.kysely, ws, now)).toBe(0);
      await h.db.write(async (trx) => {
        await credit(trx, ws, 519, 'top-up', 'member:owner@example.com', 'after-statement', now);
        await trx.updateTable('wallets').set({ monthly_cap: 500 }).where('workspace_id', '=', ws).execute();
      });
      expect(await report('r2')).toMatchObject({ status: 'debited' });
      expect((await readWallet(h.db.kysely, ws, new Date())).balance).toBe(0);
    });

    it('runs as the worker loop’s `statements` task', async () => {
      const ws = await withWallet('2026-10-01T00:00:00.000Z');
      await deliver(ws, 1001, '2026-10-10T00:00:00.000Z');
      const log: string[] = [];
      const bg = startBackground(h.db, { now: () => at('2026-11-15T00:00:00.000Z'), log: (l) => log.push(l), only: ['statements'] });
      await bg.worker.idle();
      await bg.stop();
      expect(await statements(ws)).toHaveLength(1);
      expect(log).toContain(`monthly statement of 2026-10 for workspace ${ws}: 1 accounts beyond the allowance, 0.02 USD`);
    });
  });
}
