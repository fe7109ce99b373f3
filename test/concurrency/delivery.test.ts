/**
 * The outbox and webhook delivery written by two database handles at once (two processes):
 * a workspace's events are numbered, and each endpoint's messages sequenced, in the order their
 * changes committed; an endpoint never has more messages in flight than its cap.
 */
import type { Kysely } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Database, Db } from '../../src/compose/database.js';
import { appendUncheckedEvents } from '../../src/webhooks/outbox.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { claimDue, fanOut, recordAttempt } from '../../src/webhooks/messages-store.js';
import type { WebhookDeliveryRow } from '../../src/webhooks/tables.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { dialects, useTwoHandles } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`the outbox and delivery raced on two handles of one ${d.label} database`, () => {
    const handles = useTwoHandles(d.name);

    const setup = async (name: string) => {
      const { t } = handles();
      const now = new Date();
      const ws = await createWorkspace(t.db.kysely, `${name}-${Math.random().toString(36).slice(2, 8)}`, now);
      const ep = await insertWebhookEndpoint(t.db.kysely, ws.id, { url: 'https://hooks.example.com/in' }, new Date('2020-01-01T00:00:00Z'));
      return { ws, ep };
    };

    it('numbers events in the order their writes committed, whatever their clocks say, and sequences the messages so', async () => {
      const { t, other } = handles();
      const { ws, ep } = await setup('order');
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let appended!: () => void;
      const firstAppended = new Promise<void>((r) => (appended = r));
      // The first write's clock is later than the second's, and it commits first.
      const first = t.db.write(async (trx) => {
        await appendUncheckedEvents(trx, [{ workspace_id: ws.id, type: 'deal.updated', data: { version: 2 } }], new Date('2026-05-01T10:00:01Z'));
        appended();
        await held;
      });
      await firstAppended;
      const second = other.write((trx) => appendUncheckedEvents(trx, [{ workspace_id: ws.id, type: 'deal.updated', data: { version: 3 } }], new Date('2026-05-01T10:00:00Z')));
      release();
      await first;
      await second;
      const events = await t.db.kysely.selectFrom('outbox').select(['id', 'seq', 'data']).where('workspace_id', '=', ws.id).orderBy('seq').execute();
      expect(events.map((e) => JSON.parse(e.data).version)).toEqual([2, 3]);
      await t.db.write((trx) => fanOut(trx, t.db.dialect, new Date()));
      const messages = await t.db.kysely.selectFrom('webhook_deliveries').select(['seq', 'event_id']).where('endpoint_id', '=', ep.id).orderBy('seq').execute();
      expect(messages.map((m) => Number(m.seq))).toEqual([1, 2]);
      expect(messages.map((m) => m.event_id)).toEqual(events.map((e) => e.id));
    });

    it('fans out a workspace written by two handles at once with every message numbered once, in event order', async () => {
      const { t, other } = handles();
      const { ws, ep } = await setup('fanout');
      const write = (db: Db, from: number) => db.write((trx) => appendUncheckedEvents(trx, Array.from({ length: 40 }, (_, i) => ({ workspace_id: ws.id, type: 'store.signal' as const, data: { i: from + i } })), new Date()));
      const fan = (db: Db) => db.write((trx) => fanOut(trx, db.dialect, new Date(), 25));
      await Promise.all([write(t.db, 0), write(other, 100), fan(t.db), fan(other), write(t.db, 200), fan(other), fan(t.db)]);
      while ((await fan(t.db)) > 0);
      const events = await t.db.kysely.selectFrom('outbox').select(['id', 'seq']).where('workspace_id', '=', ws.id).orderBy('seq').execute();
      expect(events.map((e) => Number(e.seq))).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      const messages = await t.db.kysely.selectFrom('webhook_deliveries').select(['seq', 'event_id']).where('endpoint_id', '=', ep.id).orderBy('seq').execute();
      expect(messages.map((m) => Number(m.seq))).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      expect(messages.map((m) => m.event_id)).toEqual(events.map((e) => e.id));
    });

    it('never claims more than the per-endpoint cap in flight when a second worker claims while the first is claiming', async () => {
      const { t, other } = handles();
      // This test's endpoint alone has messages due.
      await t.db.write((trx) => trx.updateTable('webhook_deliveries').set({ status: 'delivered' }).where('status', '=', 'pending').execute());
      const { ws, ep } = await setup('cap');
      await t.db.write((trx) => appendUncheckedEvents(trx, Array.from({ length: 20 }, (_, i) => ({ workspace_id: ws.id, type: 'store.signal' as const, data: { i } })), new Date()));
      await t.db.write((trx) => fanOut(trx, t.db.dialect, new Date()));
      const nowMs = Date.now();
      const claim = (trx: Kysely<Database>, db: Db, workerId: string, limit: number) => claimDue(trx, db.dialect, { nowMs, leaseUntilMs: nowMs + 60_000, workerId, limit, perEndpoint: 4 });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let claimed!: () => void;
      const firstClaimed = new Promise<void>((r) => (claimed = r));
      const first = t.db.write(async (trx) => {
        const ids = await claim(trx, t.db, 'a', 1);
        claimed();
        await held;
        return ids;
      });
      await firstClaimed;
      const second = other.write((trx) => claim(trx, other, 'b', 10));
      // PostgreSQL: the second claim runs to its end while the first is still open. SQLite: it
      // waits for the first's write lock, so it runs after the first committed.
      const secondIds = d.name === 'PostgreSQL' ? await second : undefined;
      release();
      const ids = [...(await first), ...(secondIds ?? (await second))];
      // The first takes one message; the second at most the three the cap leaves.
      expect(ids.length).toBeGreaterThanOrEqual(1);
      expect(ids.length).toBeLessThanOrEqual(4);
      const inflight = await t.db.kysely.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', ep.id).where('claimed_until_ms', '>', nowMs).execute();
      expect(inflight.map((r) => r.id).sort()).toEqual([...ids].sort());
    });

    it('a worker recording an attempt whose lease ran out, and another claiming the message meanwhile, never wait for each other in a cycle', async () => {
      const { t, other } = handles();
      await t.db.write((trx) => trx.updateTable('webhook_deliveries').set({ status: 'delivered' }).where('status', '=', 'pending').execute());
      const { ws, ep } = await setup('lease');
      await t.db.write((trx) => appendUncheckedEvents(trx, [{ workspace_id: ws.id, type: 'store.signal' as const, data: { i: 0 } }], new Date()));
      await t.db.write((trx) => fanOut(trx, t.db.dialect, new Date()));
      const nowMs = Date.now() + 1_000;
      // Worker a claimed it with a lease that has run out by now.
      const [id] = await t.db.write((trx) => claimDue(trx, t.db.dialect, { nowMs, leaseUntilMs: nowMs - 1, workerId: 'a', limit: 1, perEndpoint: 4 }));
      const delivery = (await t.db.kysely.selectFrom('webhook_deliveries').selectAll().where('id', '=', id!).executeTakeFirstOrThrow()) as WebhookDeliveryRow;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      // Should b hang (the failure), the test's end still lets a commit, so the file goes on.
      onTestFinished(() => release());
      let recorded!: () => void;
      const firstRecorded = new Promise<void>((r) => (recorded = r));
      // a records its delivered attempt (which writes nothing to a healthy endpoint) and holds its
      // transaction open. Were the message locked before the endpoint, b would lock the endpoint,
      // then wait for the message, and this test would hang.
      const first = t.db.write(async (trx) => {
        await recordAttempt(trx, delivery, 'a', { startedMs: nowMs - 1_000, durationMs: 5, statusCode: 200, error: null, result: 'delivered', nextAttemptMs: null }, nowMs);
        recorded();
        await held;
      });
      await firstRecorded;
      // … while b claims: the endpoint a is recording for is left to it (on SQLite b waits for the one writer).
      const second = other.write((trx) => claimDue(trx, other.dialect, { nowMs, leaseUntilMs: nowMs + 60_000, workerId: 'b', limit: 1, perEndpoint: 4 }));
      if (d.name === 'PostgreSQL') expect(await second).toEqual([]);
      release();
      await first;
      await second;
      const after = await t.db.kysely.selectFrom('webhook_deliveries').select(['status', 'claimed_by', 'attempts']).where('id', '=', id!).executeTakeFirstOrThrow();
      expect({ ...after, attempts: Number(after.attempts) }).toEqual({ status: 'delivered', claimed_by: null, attempts: 1 });
      void ep;
    }, 30_000);
  });
}
