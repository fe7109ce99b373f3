/**
 * The money and workflow writes that run outside a request (approvals from the CLI, refunds,
 * credits, the worker's statements, reports and outreach tasks) raced on two handles of one
 * database, as two processes run them: each decision, debit, refund, report and step happens
 * once (a step left sending by a dead worker is posted once), and the ledger newest first still chains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markDelivered } from '../../src/accounts/store.js';
import { newId } from '../../src/db/ids.js';
import { type Db, openDatabase } from '../../src/compose/database.js';
import { insertCadence, insertEnrollment, SEND_CLAIM_MS, setSender, stopEnrollment } from '../../src/outreach/store.js';
import { claimReport, failReport, finishReport, insertReport, REPORT_LEASE_MS } from '../../src/reports/store.js';
import { getApproval, setRules } from '../../src/wallet/store.js';
import { runOutreach } from '../../src/outreach/task.js';
import { runReports } from '../../src/reports/task.js';
import { type Charge, charge, credit, refund } from '../../src/wallet/billing.js';
import { DecisionError, decide } from '../../src/wallet/approvals.js';
import { runStatements } from '../../src/wallet/statements.js';
import { newSigningSecret } from '../../src/outbound/secrets.js';
import type { OutboundRuntime } from '../../src/outbound/runtime.js';
import { webhookRuntime } from '../../src/webhooks/runtime.js';
import { seedAccounts } from '../helpers/accounts.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { type Receiver, selfSigned, startReceiver } from '../helpers/receiver.js';
import { workspace } from '../helpers/api.js';
import { expectConsistentLedger } from './fixture.js';

const OWNER = 'member:owner@example.com';

for (const d of dialects) {
  describe.skipIf(d.skip)(`money written by two processes at once on ${d.label}`, () => {
    let t: TestDb;
    let a: Db;
    let b: Db;

    beforeAll(async () => {
      t = await freshDb(d.name);
      a = t.db;
      b = await openDatabase(t.databaseUrl ? { databaseUrl: t.databaseUrl } : { dbPath: t.dbPath });
    }, 60_000);
    afterAll(async () => {
      await b?.close();
      await t?.cleanup();
    });

    async function funded(amount = 100_000): Promise<string> {
      const ws = await workspace(a);
      await a.write((trx) => credit(trx, ws.id, amount, 'top-up', OWNER, `open-${ws.id}`, new Date()));
      return ws.id;
    }

    /** An enrollment awaiting the approval of its 100 charge (auto-approve below 50). */
    async function pendingEnrollment(ws: string): Promise<{ enrollment: string; approval: string }> {
      const now = new Date();
      await a.write((trx) => setRules(trx, ws, { auto_approve_below: 50 }, OWNER, now));
      const id = newId('enr');
      const c: Charge = await a.write(async (trx) => {
        const cadence = await insertCadence(trx, ws, 'intro', [{ day: 0, name: 'intro email' }, { day: 30, name: 'follow-up' }], now);
        const pending = await charge(trx, { workspaceId: ws, unit: 'outreach_enrollment', quantity: 1, operationId: 'enroll_outreach', idempotencyKey: newId('idem'), actor: 'key:test', now, resource: { kind: 'outreach_enrollment', id } });
        if (pending.status !== 'pending') throw new Error('expected an approval');
        await insertEnrollment(trx, { id, workspace_id: ws, store_id: 'store-a', contact_id: newId('con'), cadence_id: cadence.id, status: 'awaiting_approval', actor: 'key:test', api_key_id: null, ledger_entry_id: null, approval_id: pending.approval.id, start_ms: null, next_due_ms: null }, now);
        return pending;
      });
      if (c.status !== 'pending') throw new Error('unreachable');
      return { enrollment: id, approval: c.approval.id };
    }

    const debitsOf = async (ws: string, operation: string) => (await a.kysely.selectFrom('ledger_entries').select('id').where('workspace_id', '=', ws).where('operation_id', '=', operation).execute()).length;
    const enrollmentStatus = async (id: string) => (await a.kysely.selectFrom('outreach_enrollments').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

    it('decides an approval once when two owners approve it at once: one debit, the enrollment active', async () => {
      const ws = await funded();
      const p = await pendingEnrollment(ws);
      const rs = await Promise.allSettled([a, b].map((db) => db.write((trx) => decide(trx, p.approval, 'approved', 'owner@example.com', new Date()))));
      expect(rs.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = rs.find((r) => r.status === 'rejected')!;
      expect(refused.reason).toBeInstanceOf(DecisionError);
      expect((refused.reason as Error).message).toMatch(/already approved/);
      expect(await debitsOf(ws, 'enroll_outreach')).toBe(1);
      expect(await enrollmentStatus(p.enrollment)).toBe('active');
      await expectConsistentLedger(a, ws);
    });

    it('decides an approval once when one owner approves and another denies it at once', async () => {
      const ws = await funded();
      const p = await pendingEnrollment(ws);
      const rs = await Promise.allSettled([
        a.write((trx) => decide(trx, p.approval, 'approved', 'owner@example.com', new Date())),
        b.write((trx) => decide(trx, p.approval, 'denied', 'admin@example.com', new Date())),
      ]);
      expect(rs.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const decided = (await getApproval(a.kysely, p.approval))!;
      expect(decided.status).toBe(rs[0].status === 'fulfilled' ? 'approved' : 'denied');
      expect(await debitsOf(ws, 'enroll_outreach')).toBe(decided.status === 'approved' ? 1 : 0);
      expect(await enrollmentStatus(p.enrollment)).toBe(decided.status === 'approved' ? 'active' : 'stopped');
      await expectConsistentLedger(a, ws);
    });

    it('debits nothing for an approval whose enrollment was stopped meanwhile: the stop withdrew it', async () => {
      const ws = await funded();
      const p = await pendingEnrollment(ws);
      await b.write((trx) => stopEnrollment(trx, ws, p.enrollment, 'stopped by key:test', new Date()));
      expect((await getApproval(a.kysely, p.approval))!).toMatchObject({ status: 'withdrawn', decided_by: 'stopped by key:test' });
      for (const verdict of ['approved', 'denied'] as const) {
        await expect(a.write((trx) => decide(trx, p.approval, verdict, 'owner@example.com', new Date()))).rejects.toThrow(/already withdrawn/);
      }
      expect(await debitsOf(ws, 'enroll_outreach')).toBe(0);
      await expectConsistentLedger(a, ws);
    });

    it('decides an approval once when an owner approves it as the enrollment is stopped: debited and stopped, or withdrawn and not debited', async () => {
      for (let round = 0; round < 3; round++) {
        const ws = await funded();
        const p = await pendingEnrollment(ws);
        const rs = await Promise.allSettled([
          a.write((trx) => decide(trx, p.approval, 'approved', 'owner@example.com', new Date())),
          b.write((trx) => stopEnrollment(trx, ws, p.enrollment, 'stopped by key:test', new Date())),
        ]);
        expect(rs[1].status).toBe('fulfilled');
        const decided = (await getApproval(a.kysely, p.approval))!;
        expect(decided.status).toBe(rs[0].status === 'fulfilled' ? 'approved' : 'withdrawn');
        expect(await debitsOf(ws, 'enroll_outreach')).toBe(decided.status === 'approved' ? 1 : 0);
        expect(await enrollmentStatus(p.enrollment)).toBe('stopped');
        await expectConsistentLedger(a, ws);
      }
    });

    it('refunds a debit once when two processes refund it at once', async () => {
      const ws = await funded();
      const c = await a.write((trx) => charge(trx, { workspaceId: ws, unit: 'growth_report', quantity: 1, operationId: 'request_growth_report', idempotencyKey: 'r-1', actor: 'key:test', now: new Date() }));
      if (c.status !== 'debited') throw new Error('expected a debit');
      const [x, y] = await Promise.all([a, b].map((db) => db.write((trx) => refund(trx, c.entry.id, 'test', new Date()))));
      expect(x!.id).toBe(y!.id);
      const entries = await expectConsistentLedger(a, ws);
      expect(entries.filter((e) => e.refund_of === c.entry.id)).toHaveLength(1);
      expect(entries[0]!.balance_after).toBe(100_000);
    });

    it('credits once for one idempotency key written by two processes at once', async () => {
      const ws = await funded(1);
      const [x, y] = await Promise.all([a, b].map((db) => db.write((trx) => credit(trx, ws, 500, 'top-up', OWNER, 'credit-once', new Date()))));
      expect(x!.id).toBe(y!.id);
      const entries = await expectConsistentLedger(a, ws);
      expect(entries.filter((e) => e.idempotency_key === 'credit-once')).toHaveLength(1);
      expect(entries[0]!.balance_after).toBe(501);
    });

    it('bills each closed month once when two workers run the statement at once', async () => {
      const ws = (await workspace(a)).id;
      await a.write((trx) => credit(trx, ws, 1000, 'top-up', OWNER, `open-${ws}`, new Date('2026-10-01T00:00:00.000Z')));
      for (const month of ['2026-10', '2026-11']) {
        const ids = Array.from({ length: 1001 }, (_, i) => `${month}-store-${i}`);
        await seedAccounts(a, ws, ids.map((store_id) => ({ store_id, score: 0.5 })));
        await a.write((trx) => markDelivered(trx, ws, ids, new Date(`${month}-10T00:00:00.000Z`)));
      }
      const now = () => new Date('2026-12-02T00:00:00.000Z');
      const [x, y] = await Promise.all([runStatements(a, { now }), runStatements(b, { now })]);
      expect([...x, ...y].filter((e) => e.workspace_id === ws).map((e) => e.idempotency_key).sort()).toEqual(['2026-10', '2026-11']);
      const entries = await expectConsistentLedger(a, ws);
      expect(entries.filter((e) => e.operation_id === 'monthly_statement').map((e) => e.idempotency_key).sort()).toEqual(['2026-10', '2026-11']);
    });

    it('fails and refunds each report once when two workers run the reports task at once', async () => {
      const ws = await funded();
      const now = new Date();
      const ids = await a.write(async (trx) => {
        const out: string[] = [];
        for (let i = 0; i < 6; i++) {
          const id = newId('rep');
          const c = await charge(trx, { workspaceId: ws, unit: 'growth_report', quantity: 1, operationId: 'request_growth_report', idempotencyKey: `rep-${i}`, actor: 'key:test', now });
          if (c.status !== 'debited') throw new Error('expected a debit');
          await insertReport(trx, { id, workspace_id: ws, store_id: 'store-a', month: null, status: 'queued', requested_by: 'key:test', ledger_entry_id: c.entry.id, approval_id: null }, now);
          out.push(id);
        }
        return out;
      });
      // Nothing is published: every report fails, and its charge is refunded.
      const statistics = { current: async () => null };
      const handled = await Promise.all([a, b].map((db) => runReports(db, { now: () => new Date(), statistics })));
      expect(handled[0]! + handled[1]!).toBe(ids.length);
      const rows = await a.kysely.selectFrom('growth_reports').select(['id', 'status', 'refund_entry_id']).where('workspace_id', '=', ws).execute();
      expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'failed'));
      const entries = await expectConsistentLedger(a, ws);
      expect(entries.filter((e) => e.operation_id === 'refund')).toHaveLength(ids.length);
      expect(rows.map((r) => r.refund_entry_id).sort()).toEqual(entries.filter((e) => e.operation_id === 'refund').map((e) => e.id).sort());
      expect(entries[0]!.balance_after).toBe(100_000);
    });

    it('keeps a report from a worker whose claim another took over: its result and its failure are dropped', async () => {
      const ws = await funded();
      const t0 = new Date('2026-11-02T10:00:00.000Z');
      const id = newId('rep');
      await a.write((trx) => insertReport(trx, { id, workspace_id: ws, store_id: 'store-a', month: null, status: 'queued', requested_by: 'key:test', ledger_entry_id: null, approval_id: null }, t0));
      const first = (await claimReport(a, t0))!;
      expect(first.id).toBe(id);
      const later = new Date(t0.getTime() + REPORT_LEASE_MS + 1);
      const second = (await claimReport(b, later))!;
      expect(second.id).toBe(id);
      expect(await a.write((trx) => finishReport(trx, first, { by: 'first' }, later))).toBe(false);
      expect(await a.write((trx) => failReport(trx, first, { by: 'first' }, later))).toBe(false);
      expect(await b.write((trx) => finishReport(trx, second, { by: 'second' }, later))).toBe(true);
      expect(await a.write((trx) => finishReport(trx, second, { by: 'again' }, later))).toBe(false);
      const row = await a.kysely.selectFrom('growth_reports').select(['status', 'content']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'done', content: JSON.stringify({ by: 'second' }) });
    });

    describe('the outreach task', () => {
      let receiver: Receiver;
      let runtimes: OutboundRuntime[];

      beforeAll(async () => {
        receiver = await startReceiver({ tls: true });
        runtimes = [];
        for (const db of [a, b]) runtimes.push(await webhookRuntime(db.kysely, { allowLocal: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] }));
      });
      afterAll(async () => {
        await receiver?.close();
      });

      /** A sender, a two-step cadence and `n` enrollments of store-a due now; their ids. */
      const enrolled = (ws: string, n: number, now: Date) =>
        a.write(async (trx) => {
          await setSender(trx, ws, receiver.url('/sender'), runtimes[0]!.box.seal(newSigningSecret()), now);
          const cadence = await insertCadence(trx, ws, 'intro', [{ day: 0, name: 'intro email' }, { day: 30, name: 'follow-up' }], now);
          const out: string[] = [];
          for (let i = 0; i < n; i++) {
            const id = newId('enr');
            await insertEnrollment(trx, { id, workspace_id: ws, store_id: 'store-a', contact_id: newId('con'), cadence_id: cadence.id, status: 'active', actor: 'key:test', api_key_id: null, ledger_entry_id: null, approval_id: null, start_ms: now.getTime(), next_due_ms: now.getTime() }, now);
            out.push(id);
          }
          return out;
        });

      it('sends and charges each due step once when two workers run it at once', async () => {
        const ws = await funded(10_000);
        const now = new Date();
        const ids = await enrolled(ws, 8, now);
        const before = receiver.received.length;
        await Promise.all([a, b].map((db, i) => runOutreach(db, { now: () => new Date(), outbound: runtimes[i]!, ca: selfSigned().cert })));
        const steps = await a.kysely.selectFrom('outreach_steps').select(['enrollment_id', 'step', 'status']).where('workspace_id', '=', ws).execute();
        expect(steps.map((s) => `${s.enrollment_id}:${s.step}:${s.status}`).sort()).toEqual(ids.map((id) => `${id}:0:sent`).sort());
        const sent = receiver.received.slice(before).filter((r) => ids.includes(r.json.enrollment_id));
        expect(sent).toHaveLength(ids.length);
        const entries = await expectConsistentLedger(a, ws);
        expect(entries.filter((e) => e.operation_id === 'outreach_step').map((e) => e.idempotency_key).sort()).toEqual(ids.map((id) => `${id}:0`).sort());
      });

      it('posts each step left sending by a dead worker once when two workers take it up at once, its charge kept', async () => {
        const ws = await funded(10_000);
        const now = new Date();
        const ids = await enrolled(ws, 6, now);
        // Six workers each killed mid-send: each charged and recorded one step, whose POST never returned.
        const lost: string[] = [];
        for (const _ of ids) {
          const headers = await new Promise<Record<string, string>>((resolve, reject) => {
            runOutreach(a, { now: () => now, outbound: runtimes[0]!, send: (_t, _b, h) => (resolve(h), new Promise(() => {})) }).catch(reject);
          });
          lost.push(headers['webhook-id']!);
        }
        const mine = () => a.kysely.selectFrom('outreach_steps').select(['id', 'status']).where('workspace_id', '=', ws).execute();
        expect((await mine()).map((s) => s.status)).toEqual(ids.map(() => 'sending'));
        const before = receiver.received.length;
        const later = () => new Date(now.getTime() + SEND_CLAIM_MS);
        const posted = await Promise.all([a, b].map((db, i) => runOutreach(db, { now: later, outbound: runtimes[i]!, ca: selfSigned().cert })));
        expect(posted[0]! + posted[1]!).toBe(ids.length);
        expect(receiver.received.slice(before).map((r) => r.id).sort()).toEqual([...lost].sort());
        expect((await mine()).map((s) => s.status)).toEqual(ids.map(() => 'sent'));
        const entries = await expectConsistentLedger(a, ws);
        expect(entries.filter((e) => e.operation_id === 'outreach_step')).toHaveLength(ids.length);
        expect(entries.filter((e) => e.operation_id === 'refund')).toHaveLength(0);
      });

      it('starts no further step once the process is stopping, and leaves the rest due for the next run', async () => {
        const ws = await funded(10_000);
        const now = new Date();
        await a.write(async (trx) => {
          const cadence = await insertCadence(trx, ws, 'intro', [{ day: 0, name: 'intro email' }, { day: 30, name: 'follow-up' }], now);
          for (let i = 0; i < 5; i++) {
            await insertEnrollment(trx, { id: newId('enr'), workspace_id: ws, store_id: 'store-a', contact_id: newId('con'), cadence_id: cadence.id, status: 'active', actor: 'key:test', api_key_id: null, ledger_entry_id: null, approval_id: null, start_ms: now.getTime(), next_due_ms: now.getTime() }, now);
          }
        });
        const mine = () => a.kysely.selectFrom('outreach_steps').select('id').where('workspace_id', '=', ws).execute();
        // The stop arrives while the second step is being recorded.
        let asked = 0;
        await runOutreach(a, { now: () => new Date(), outbound: runtimes[0]!, stopping: () => ++asked > 2 });
        expect(await mine()).toHaveLength(2);
        await runOutreach(a, { now: () => new Date(), outbound: runtimes[0]! });
        expect(await mine()).toHaveLength(5);
      });
    });
  });
}
