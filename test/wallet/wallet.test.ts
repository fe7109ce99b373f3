/**
 * The wallet over a real socket on SQLite and PostgreSQL: credits from the CLI, charges of a
 * billable operation (growth reports), the standing rules, approvals, replays, the race of two
 * charges the balance covers once, and the ledger's invariants as properties.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalRow, ledgerSum, lockWallet, readWallet } from '../../src/wallet/store.js';
import { addActivation } from '../../src/workspaces/store.js';
import { charge, credit, CreditKeyReusedError, refund } from '../../src/wallet/billing.js';
import { seedAccounts } from '../helpers/accounts.js';
import { adminCli } from '../helpers/cli.js';
import { dialects } from '../helpers/db.js';

import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';
const WALLET_OPS = ['get_wallet', 'list_wallet_usage', 'get_wallet_pricing', 'list_wallet_approvals', 'get_wallet_rules', 'get_supervision', 'request_growth_report', 'list_growth_reports', 'get_growth_report'];
const REPORT_PRICE = 500;

for (const d of dialects) {
  describe.skipIf(d.skip)(`wallet on ${d.label}`, () => {
    let h: Harness;
    const run = adminCli(() => h.t);

    /** A workspace with the activation, two visible stores, an owner, and a key reading the wallet and requesting reports. */
    async function setup(): Promise<{ id: string; name: string; key: string }> {
      const ws = await workspace(h.db);
      await h.db.write((trx) => addActivation(trx, ws.id, 'growth_reports'));
      await seedAccounts(h.db, ws.id, [
        { store_id: 'store-a', score: 0.9 },
        { store_id: 'store-b', score: 0.8 },
      ]);
      return { id: ws.id, name: ws.name, key: await apiKey(h.db, ws.id, ['read:wallet', 'generate:reports']) };
    }
    const request = (key: string, store = 'store-a', idem = freshIdem()) => call(h.base, 'POST', '/reports/growth', { key, idem, body: { store_id: store } });

    beforeAll(async () => {
      h = await startApi(d.name, { operations: { ...Object.fromEntries(WALLET_OPS.map((op) => [op, 'available'])), list_accounts: 'available', get_account: 'available' }, rateLimits: { report: 1000 }, poolSize: 4 });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('starts empty, in USD minor units, with the versioned price list', async () => {
      const ws = await setup();
      const w = await call(h.base, 'GET', '/wallet', { key: ws.key });
      expect(w.status).toBe(200);
      expect(w.body).toEqual({ object: 'wallet', currency: 'USD', balance: 0, spent_this_month: 0, monthly_cap: null, auto_approve_below: null, plan: { name: 'standard', accounts_allowance: 1000 } });
      const p = await call(h.base, 'GET', '/wallet/pricing', { key: ws.key });
      expect(p.body.data.map((x: any) => [x.unit, x.unit_price, x.currency, x.version])).toEqual([
        ['account_delivered_over_allowance', 2, 'USD', 1],
        ['growth_report', REPORT_PRICE, 'USD', 1],
        ['outreach_enrollment', 100, 'USD', 1],
        ['outreach_step', 25, 'USD', 1],
      ]);
    });

    it('credits from the CLI (owner or admin only), names the cause, and a repeated --idempotency-key credits once', async () => {
      const ws = await setup();
      const r = await run('wallet', 'credit', ws.name, '12.50', '--reason', 'top-up', '--as', 'owner@example.com', '--idempotency-key', 'inv-1', '--json');
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ workspace_id: ws.id, amount: 1250, currency: 'USD', balance: 1250, idempotency_key: 'inv-1' });
      expect((await run('wallet', 'credit', ws.name, '12.50', '--reason', 'top-up', '--as', 'owner@example.com', '--idempotency-key', 'inv-1', '--json')).json.balance).toBe(1250);
      // The same key for a different credit is refused, naming the first: nothing is credited.
      const reused = await run('wallet', 'credit', ws.name, '20', '--reason', 'top-up', '--as', 'owner@example.com', '--idempotency-key', 'inv-1');
      expect(reused.code).toBe(2);
      expect(reused.stderr).toContain('--idempotency-key inv-1: already used for a credit of 12.50 USD (reason "top-up"');
      const bad = await run('wallet', 'credit', ws.name, '1.005', '--reason', 'x', '--as', 'owner@example.com');
      expect(bad.code).toBe(2);
      const stranger = await run('wallet', 'credit', ws.name, '5', '--reason', 'x', '--as', 'nobody@example.com');
      expect(stranger.code).toBe(2);
      const usage = await call(h.base, 'GET', '/wallet/usage', { key: ws.key });
      expect(usage.body.data).toEqual([expect.objectContaining({ kind: 'credit', amount: 1250, operation_id: 'wallet_credit', idempotency_key: 'inv-1', actor: 'member:owner@example.com', reason: 'top-up', balance_after: 1250 })]);
    });

    it('knows the owner by the email as members are kept, whatever its case or spaces, as every other --as does', async () => {
      // The wallet (and outreach) compared --as as typed: " Owner@Example.COM" was "not a member",
      // though keys create took it, and a credit made as typed would have named another actor.
      const ws = await setup();
      const r = await run('wallet', 'credit', ws.name, '5', '--reason', 'cased', '--as', ' Owner@Example.COM', '--json');
      expect(r.code, r.stderr).toBe(0);
      const rules = await run('wallet', 'rules', ws.name, '--as', 'OWNER@example.com', '--monthly-cap', '50');
      expect(rules.code, rules.stderr).toBe(0);
      const usage = await call(h.base, 'GET', '/wallet/usage', { key: ws.key });
      expect(usage.body.data).toEqual([expect.objectContaining({ kind: 'credit', amount: 500, actor: 'member:owner@example.com' })]);
    });

    it('refuses a credit past the most a wallet holds (10,000,000,000,000.00, 10^15 minor units), and the database refuses any balance or amount outside ±10^15', async () => {
      const ws = await setup();
      const credit = (amount: string) => run('wallet', 'credit', ws.name, amount, '--reason', 'large', '--as', 'owner@example.com', '--json');
      expect((await credit('9999999999999.99')).json).toMatchObject({ balance: 999_999_999_999_999 });
      // A second credit of the largest amount would pass 2^53, where balances stop being exact.
      for (const amount of ['9999999999999.99', '0.02']) {
        const over = await credit(amount);
        expect(over.code).toBe(1);
        expect(over.stderr).toContain(`would take the balance of ${ws.name} (9999999999999.99 USD) over the most a wallet holds, 10000000000000.00 USD; nothing credited`);
      }
      expect((await credit('0.01')).json).toMatchObject({ balance: 10 ** 15 });
      expect(await readWallet(h.db.kysely, ws.id, new Date())).toMatchObject({ balance: 10 ** 15 });
      expect(await ledgerSum(h.db.kysely, ws.id)).toBe(10 ** 15);
      // Whatever writes them, the database keeps balances and ledger amounts in range.
      const setBalance = (balance: number) => h.db.write((trx) => trx.updateTable('wallets').set({ balance }).where('workspace_id', '=', ws.id).execute());
      await expect(setBalance(10 ** 15 + 1)).rejects.toThrow();
      await expect(setBalance(-(10 ** 15) - 1)).rejects.toThrow();
      await setBalance(-(10 ** 15));
      const [entry] = await h.db.kysely.selectFrom('ledger_entries').selectAll().where('workspace_id', '=', ws.id).limit(1).execute();
      const append = (amount: number, balance_after: number) => h.db.write((trx) => trx.insertInto('ledger_entries').values({ ...entry!, id: `led_range_${amount}_${balance_after}`, idempotency_key: `range-${amount}-${balance_after}`, amount, balance_after }).execute());
      await expect(append(10 ** 15 + 1, 0)).rejects.toThrow();
      await expect(append(1, -(10 ** 15) - 1)).rejects.toThrow();
      await setBalance(10 ** 15);
    });

    it('debits a report on acceptance (202 + Location), once per Idempotency-Key, and 409s without funds', async () => {
      const ws = await setup();
      const poor = await request(ws.key);
      expect(poor.status).toBe(409);
      expect(poor.body).toMatchObject({ type: `${PROBLEM}insufficient-funds`, amount: REPORT_PRICE, balance: 0 });
      await run('wallet', 'credit', ws.name, '10', '--reason', 'r', '--as', 'owner@example.com');
      const idem = freshIdem();
      const r = await request(ws.key, 'store-a', idem);
      expect(r.status).toBe(202);
      expect(r.headers.get('location')).toBe(`/api/v1/reports/growth/${r.body.id}`);
      expect(r.body).toMatchObject({ object: 'growth_report', status: 'queued', store_id: 'store-a', ledger_entry_id: expect.stringMatching(/^led_/) });
      const again = await request(ws.key, 'store-a', idem);
      expect(again.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('location')).toBe(r.headers.get('location'));
      const w = await call(h.base, 'GET', '/wallet', { key: ws.key });
      expect(w.body).toMatchObject({ balance: 1000 - REPORT_PRICE, spent_this_month: REPORT_PRICE });
      const usage = await call(h.base, 'GET', '/wallet/usage', { key: ws.key });
      const debits = usage.body.data.filter((e: any) => e.kind === 'debit');
      expect(debits).toEqual([expect.objectContaining({ id: r.body.ledger_entry_id, amount: -REPORT_PRICE, unit: 'growth_report', operation_id: 'request_growth_report', idempotency_key: idem, allowed_by: 'rule:no_approval_needed' })]);
      expect(debits[0].actor).toMatch(/^key:/);
      const invisible = await request(ws.key, 'store-unknown');
      expect(invisible.status).toBe(404);
    });

    it('lets exactly one of two concurrent charges through when the balance covers one', async () => {
      for (let round = 0; round < 3; round++) {
        const ws = await setup();
        await run('wallet', 'credit', ws.name, '5', '--reason', 'one report', '--as', 'owner@example.com');
        const both = await Promise.all([request(ws.key, 'store-a'), request(ws.key, 'store-b')]);
        expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
        expect(both.find((r) => r.status === 409)!.body.type).toBe(`${PROBLEM}insufficient-funds`);
        expect(await readWallet(h.db.kysely, ws.id, new Date())).toMatchObject({ balance: 0 });
        expect(await ledgerSum(h.db.kysely, ws.id)).toBe(0);
      }
    });

    it('holds a charge at or above the auto-approve amount for an approval; approve debits and queues, deny debits nothing', async () => {
      const ws = await setup();
      await run('wallet', 'credit', ws.name, '20', '--reason', 'r', '--as', 'owner@example.com');
      const rules = await run('wallet', 'rules', ws.name, '--auto-approve-below', '5', '--as', 'admin@example.com', '--json');
      expect(rules.code).toBe(2); // not a member
      await run('members', 'add', '--workspace', ws.name, '--email', 'admin@example.com', '--role', 'admin');
      expect((await run('wallet', 'rules', ws.name, '--auto-approve-below', '5', '--as', 'admin@example.com', '--json')).json).toMatchObject({ auto_approve_below: 500, monthly_cap: null });
      const held = await request(ws.key);
      expect(held.status).toBe(202);
      expect(held.body).toMatchObject({ status: 'awaiting_approval', ledger_entry_id: null, approval_id: expect.stringMatching(/^apr_/) });
      expect((await call(h.base, 'GET', '/wallet', { key: ws.key })).body.balance).toBe(2000);
      const pending = await call(h.base, 'GET', '/wallet/approvals?status=pending', { key: ws.key });
      expect(pending.body.data).toEqual([expect.objectContaining({ id: held.body.approval_id, amount: REPORT_PRICE, resource: { kind: 'growth_report', id: held.body.id } })]);
      const member = await run('wallet', 'approve', held.body.approval_id, '--as', 'someone@example.com');
      expect(member.code).toBe(2);
      const ok = await run('wallet', 'approve', held.body.approval_id, '--as', 'owner@example.com', '--json');
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.json).toMatchObject({ status: 'approved', amount: REPORT_PRICE, ledger_entry_id: expect.stringMatching(/^led_/) });
      expect((await run('wallet', 'approve', held.body.approval_id, '--as', 'owner@example.com')).code).toBe(2);
      const report = await call(h.base, 'GET', `/reports/growth/${held.body.id}`, { key: ws.key });
      expect(report.body).toMatchObject({ status: 'queued', ledger_entry_id: ok.json.ledger_entry_id });
      expect((await call(h.base, 'GET', '/wallet', { key: ws.key })).body.balance).toBe(1500);
      const sup = await call(h.base, 'GET', '/supervision?kind=report_requested', { key: ws.key });
      expect(sup.body.data[0]).toMatchObject({ subject: held.body.id, allowed_by: `approval:${held.body.approval_id}`, ledger_entry_id: ok.json.ledger_entry_id });

      const second = await request(ws.key, 'store-b');
      const denied = await run('wallet', 'deny', second.body.approval_id, '--as', 'owner@example.com', '--json');
      expect(denied.json).toMatchObject({ status: 'denied', ledger_entry_id: null });
      expect((await call(h.base, 'GET', `/reports/growth/${second.body.id}`, { key: ws.key })).body).toMatchObject({ status: 'failed', ledger_entry_id: null });
      expect((await call(h.base, 'GET', '/wallet', { key: ws.key })).body.balance).toBe(1500);
      expect((await call(h.base, 'GET', '/wallet/rules', { key: ws.key })).body).toMatchObject({ auto_approve_below: 500, updated_by: 'member:admin@example.com' });
    });

    it('refuses a charge over the monthly cap with spend-cap-reached', async () => {
      const ws = await setup();
      await run('wallet', 'credit', ws.name, '100', '--reason', 'r', '--as', 'owner@example.com');
      await run('wallet', 'rules', ws.name, '--monthly-cap', '7.50', '--as', 'owner@example.com');
      expect((await request(ws.key)).status).toBe(202);
      const over = await request(ws.key, 'store-b');
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({ type: `${PROBLEM}spend-cap-reached`, spent_this_month: REPORT_PRICE, monthly_cap: 750 });
      expect((await call(h.base, 'GET', '/wallet', { key: ws.key })).body).toMatchObject({ balance: 10_000 - REPORT_PRICE, monthly_cap: 750 });
    });

    it('never charges a price in another currency than the wallet\'s: 503 with Retry-After, nothing debited', async () => {
      const ws = await setup();
      await run('wallet', 'credit', ws.name, '100', '--reason', 'r', '--as', 'owner@example.com');
      // An operator's new price list prices the unit in EUR; the wallet holds USD.
      const price = { version: 999, unit: 'growth_report', currency: 'EUR', unit_price: 400, description: 'test', effective_from: '2090-01-01T00:00:00.000Z' };
      await h.db.kysely.insertInto('prices').values(price).execute();
      try {
        const now = new Date('2090-02-01T00:00:00Z');
        const charged = h.db.write((trx) => charge(trx, { workspaceId: ws.id, unit: 'growth_report', quantity: 1, operationId: 'request_growth_report', idempotencyKey: freshIdem(), actor: 'key:test', now }));
        await expect(charged).rejects.toMatchObject({ status: 503, headers: { 'retry-after': '60' }, detail: 'No price in USD is set for growth_report; try again later.' });
      } finally {
        await h.db.kysely.deleteFrom('prices').where('version', '=', 999).execute();
      }
      expect(await readWallet(h.db.kysely, ws.id, new Date())).toMatchObject({ balance: 10_000, currency: 'USD' });
      expect(await ledgerSum(h.db.kysely, ws.id)).toBe(10_000);
    });

    it('asks one approval per cause: the same cause charged again, or twice at once, waits for the same one', async () => {
      const ws = await setup();
      await run('wallet', 'credit', ws.name, '100', '--reason', 'r', '--as', 'owner@example.com');
      await run('wallet', 'rules', ws.name, '--auto-approve-below', '1', '--as', 'owner@example.com');
      const now = new Date('2026-01-15T10:00:00Z');
      const ask = (key: string) => h.db.write((trx) => charge(trx, { workspaceId: ws.id, unit: 'growth_report', quantity: 1, operationId: 'request_growth_report', idempotencyKey: key, actor: 'key:test', now }));
      const [a, b] = await Promise.all([ask('same-cause'), ask('same-cause')]);
      const again = await ask('same-cause');
      expect([a.status, b.status, again.status]).toEqual(['pending', 'pending', 'pending']);
      const ids = [a, b, again].map((c) => (c.status === 'pending' ? c.approval.id : null));
      expect(new Set(ids).size).toBe(1);
      const rows = await h.db.kysely.selectFrom('approvals').select('id').where('workspace_id', '=', ws.id).where('idempotency_key', '=', 'same-cause').execute();
      expect(rows).toHaveLength(1);
      // The database keeps it so: a second pending approval of the cause is refused.
      const first = rows[0]!.id;
      await expect(h.db.write((trx) => trx.insertInto('approvals').values({ ...(a as { approval: ApprovalRow }).approval, id: `${first}-2` }).execute())).rejects.toThrow();
    });

    it('refuses a key reused for new work after its replay window (409 idempotency-key-reused): no report runs on an earlier debit or approval', async () => {
      const ws = await setup();
      await run('wallet', 'credit', ws.name, '100', '--reason', 'r', '--as', 'owner@example.com');
      const reports = () => h.db.kysely.selectFrom('growth_reports').select('id').where('workspace_id', '=', ws.id).execute();
      const debited = freshIdem();
      expect((await request(ws.key, 'store-a', debited)).status).toBe(202);
      await run('wallet', 'rules', ws.name, '--auto-approve-below', '1', '--as', 'owner@example.com');
      const waiting = freshIdem();
      expect((await request(ws.key, 'store-a', waiting)).status).toBe(202);
      const balance = (await call(h.base, 'GET', '/wallet', { key: ws.key })).body.balance;
      const before = (await reports()).length;
      // A day and more later the requests are no longer replayed: the keys reach the charge again.
      h.clock.advance(25 * 3600_000);
      for (const idem of [debited, waiting]) {
        const again = await request(ws.key, 'store-b', idem);
        expect(again.status).toBe(409);
        expect(again.body.type).toBe(`${PROBLEM}idempotency-key-reused`);
      }
      expect((await call(h.base, 'GET', '/wallet', { key: ws.key })).body.balance).toBe(balance);
      expect(await reports()).toHaveLength(before);
    });

    it('keeps balance = sum of entries, every entry with its cause, and never debits a cause twice (property)', async () => {
      const ws = await setup();
      const op = fc.oneof(
        fc.record({ t: fc.constant('credit' as const), amount: fc.integer({ min: 1, max: 3000 }), key: fc.integer({ min: 0, max: 5 }) }),
        fc.record({ t: fc.constant('charge' as const), key: fc.integer({ min: 0, max: 8 }) }),
        fc.record({ t: fc.constant('refund' as const), pick: fc.nat() }),
      );
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
          const round = ++n;
          const now = new Date('2026-01-15T10:00:00Z');
          const debits: string[] = [];
          const causes = new Set<string>();
          // A credit key used again: the same credit is a replay, a different amount is refused.
          const credited = new Map<number, number>();
          for (const o of ops) {
            await h.db
              .write(async (trx) => {
                if (o.t === 'credit') {
                  const first = credited.get(o.key);
                  const done = credit(trx, ws.id, o.amount, 'p', 'member:owner@example.com', `c-${round}-${o.key}`, now);
                  if (first !== undefined && first !== o.amount) return void (await expect(done).rejects.toThrow(CreditKeyReusedError));
                  await done;
                  credited.set(o.key, o.amount);
                  causes.add(`wallet_credit c-${round}-${o.key}`);
                } else if (o.t === 'charge') {
                  const c = await charge(trx, { workspaceId: ws.id, unit: 'growth_report', quantity: 1, operationId: 'request_growth_report', idempotencyKey: `k-${round}-${o.key}`, actor: 'key:test', now });
                  if (c.status === 'debited') debits.push(c.entry.id);
                  causes.add(`request_growth_report k-${round}-${o.key}`);
                } else if (debits.length) {
                  await refund(trx, debits[o.pick % debits.length]!, 'p', now);
                }
              })
              .catch((e) => {
                if (e?.kind !== 'insufficient-funds') throw e;
              });
          }
          const w = await h.db.write((trx) => lockWallet(trx, ws.id, now));
          expect(w.balance).toBe(await ledgerSum(h.db.kysely, ws.id));
          expect(w.balance).toBeGreaterThanOrEqual(0);
          const rows = await h.db.kysely.selectFrom('ledger_entries').selectAll().where('workspace_id', '=', ws.id).execute();
          for (const r of rows) {
            expect(r.operation_id && r.idempotency_key && r.actor).toBeTruthy();
            if (r.kind === 'refund') expect(rows.some((x) => x.id === r.refund_of && x.kind === 'debit' && Number(x.amount) === -Number(r.amount))).toBe(true);
          }
          const seen = rows.filter((r) => r.idempotency_key.includes(`-${round}-`)).map((r) => `${r.operation_id} ${r.idempotency_key}`);
          expect(new Set(seen).size).toBe(seen.length);
        }),
        { numRuns: 15 },
      );
    });

    it('pages the ledger with cursors and filters supervision by kind, key and time', async () => {
      const ws = await setup();
      for (let i = 0; i < 3; i++) await run('wallet', 'credit', ws.name, '10', '--reason', `r${i}`, '--as', 'owner@example.com');
      await request(ws.key);
      const first = await call(h.base, 'GET', '/wallet/usage?limit=2', { key: ws.key });
      expect(first.body.data).toHaveLength(2);
      const second = await call(h.base, 'GET', `/wallet/usage?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: ws.key });
      expect(second.body.data).toHaveLength(2);
      expect(second.body.next_cursor).toBeNull();
      expect(new Set([...first.body.data, ...second.body.data].map((e: any) => e.id)).size).toBe(4);
      expect((await call(h.base, 'GET', '/wallet/usage?cursor=bogus', { key: ws.key })).status).toBe(400);
      const sup = await call(h.base, 'GET', '/supervision', { key: ws.key });
      expect(sup.body.data).toEqual([expect.objectContaining({ kind: 'report_requested', actor: expect.stringMatching(/^key:/), allowed_by: 'rule:no_approval_needed', ledger_entry_id: expect.stringMatching(/^led_/) })]);
      const keyId = sup.body.data[0].api_key_id;
      expect((await call(h.base, 'GET', `/supervision?key_id=${keyId}`, { key: ws.key })).body.data).toHaveLength(1);
      expect((await call(h.base, 'GET', '/supervision?key_id=key_other', { key: ws.key })).body.data).toHaveLength(0);
      expect((await call(h.base, 'GET', '/supervision?since=2999-01-01T00:00:00Z', { key: ws.key })).body.data).toHaveLength(0);
      expect((await call(h.base, 'GET', '/supervision?kind=outreach_step_sent', { key: ws.key })).body.data).toHaveLength(0);
      expect((await call(h.base, 'GET', '/supervision?since=yesterday', { key: ws.key })).status).toBe(400);
    });

    it('records each delivery of accounts to an agent for supervision, once per account', async () => {
      const ws = await setup();
      const reader = await apiKey(h.db, ws.id, ['read:accounts', 'read:wallet']);
      expect((await call(h.base, 'GET', '/accounts?filter=all', { key: reader })).status).toBe(200);
      expect((await call(h.base, 'GET', '/accounts?filter=all', { key: reader })).status).toBe(200);
      expect((await call(h.base, 'GET', '/accounts/store-a', { key: reader })).status).toBe(200);
      const sup = (await call(h.base, 'GET', '/supervision?kind=accounts_delivered', { key: reader })).body.data;
      expect(sup).toEqual([expect.objectContaining({ kind: 'accounts_delivered', quantity: 2, actor: expect.stringMatching(/^key:/), allowed_by: 'plan:allowance', ledger_entry_id: null, detail: { store_ids: ['store-a', 'store-b'] } })]);
    });

    it("never shows another workspace's wallet, reports or approvals", async () => {
      const a = await setup();
      const b = await setup();
      await run('wallet', 'credit', a.name, '10', '--reason', 'r', '--as', 'owner@example.com');
      const r = await request(a.key);
      expect((await call(h.base, 'GET', `/reports/growth/${r.body.id}`, { key: b.key })).status).toBe(404);
      expect((await call(h.base, 'GET', '/wallet', { key: b.key })).body.balance).toBe(0);
      expect((await call(h.base, 'GET', '/wallet/usage', { key: b.key })).body.data).toEqual([]);
      expect((await call(h.base, 'GET', '/supervision', { key: b.key })).body.data).toEqual([]);
      expect((await call(h.base, 'GET', '/reports/growth', { key: b.key })).body.data).toEqual([]);
    });
  });
}
