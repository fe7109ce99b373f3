/**
 * Webhooks end to end over real sockets: the API registers endpoints, events appended to the
 * outbox are delivered by the worker to a real HTTPS receiver on loopback, and every delivery
 * is verified with the `standardwebhooks` library. SQLite always; PostgreSQL with DATABASE_URL.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKey, call, freshIdem, workspace } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { type Answer, type Receiver, startReceiver, verify } from '../helpers/receiver.js';
import { JITTER, LEASE_MS, RETRY_AFTER_CAP_MS, RETRY_SCHEDULE_MS } from '../../src/webhooks/deliver.js';
import { claimDue, fanOut, recordAttempt, STREAK_GAP_MS } from '../../src/webhooks/messages-store.js';
import { until } from '../helpers/wait.js';
import { settle, startWebhooks, type WebhookHarness } from '../helpers/webhooks.js';

const HOUR = 3600_000;

for (const d of dialects) {
  describe.skipIf(d.skip)(`webhooks (${d.label})`, () => {
    let h: WebhookHarness;
    let rx: Receiver;
    beforeEach(async () => {
      h = await startWebhooks(d.name);
      rx = await startReceiver();
    });
    afterEach(async () => {
      await rx.close();
      await h.close();
    });

    const register = async (body: Record<string, unknown>, idem = freshIdem()) => call(h.base, 'POST', '/webhooks', { key: h.key, idem, body });
    const endpoint = async (body: Record<string, unknown> = {}) => {
      const r = await register({ url: rx.url(), ...body });
      expect(r.status).toBe(201);
      return r.body as { id: string; secret: string };
    };
    const log = async (id: string) => (await call(h.base, 'GET', `/webhooks/${id}/deliveries?limit=200`, { key: h.key })).body.data as any[];

    it('registers with the secret once; a replay, GET and the list never show it, and the database file does not hold it', async () => {
      const idem = freshIdem();
      const first = await register({ url: rx.url(), event_types: ['deal.created'], description: 'CRM' }, idem);
      // Answered as every create is: 201, and where the endpoint is read.
      expect([first.status, first.headers.get('location')]).toEqual([201, `/api/v1/webhooks/${first.body.id}`]);
      expect(first.body).toMatchObject({ object: 'webhook_endpoint', url: rx.url(), event_types: ['deal.created'], description: 'CRM', enabled: true });
      const secret: string = first.body.secret;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
      const replay = await register({ url: rx.url(), event_types: ['deal.created'], description: 'CRM' }, idem);
      expect([replay.status, replay.headers.get('location')]).toEqual([201, `/api/v1/webhooks/${first.body.id}`]);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toMatchObject({ id: first.body.id, secret: null });
      expect(replay.body.secret_note).toMatch(/shown only in the first response/);
      const got = await call(h.base, 'GET', `/webhooks/${first.body.id}`, { key: h.key });
      expect(got.status).toBe(200);
      expect(got.body).not.toHaveProperty('secret');
      const list = await call(h.base, 'GET', '/webhooks', { key: h.key });
      expect(list.body.data.map((e: any) => e.id)).toEqual([first.body.id]);
      expect(JSON.stringify(list.body)).not.toContain(secret.slice(6, 20));
      // Nowhere in the database in plain text (the endpoint row, the idempotency record).
      const dump = JSON.stringify([
        await h.db.kysely.selectFrom('webhook_endpoints').selectAll().execute(),
        await h.db.kysely.selectFrom('idempotency_keys').selectAll().execute(),
      ]);
      expect(dump).not.toContain(secret.slice(6, 20));
      if (h.t.dbPath) {
        await h.db.write(async () => undefined);
        for (const file of [h.t.dbPath, `${h.t.dbPath}-wal`]) {
          let bytes: Buffer;
          try {
            bytes = readFileSync(file);
          } catch {
            continue;
          }
          expect(bytes.includes(Buffer.from(secret.slice(6, 20)))).toBe(false);
          expect(bytes.includes(Buffer.from(secret))).toBe(false);
        }
      }
    });

    it('delivers each event signed (verified with standardwebhooks), with per-endpoint sequence numbers and the event types asked for', async () => {
      const all = await endpoint();
      const rx2 = await startReceiver();
      try {
        const deals = (await register({ url: rx2.url(), event_types: ['deal.stage_changed'] })).body as { id: string; secret: string };
        await h.emit([
          { type: 'deal.created', data: { deal_id: 'd1' } },
          { type: 'deal.stage_changed', data: { deal_id: 'd1', from: 'lead', to: 'qualified' } },
          { type: 'store.entered', data: { store_id: 's1' } },
        ]);
        await settle(h.deliverer());
        expect(rx.received).toHaveLength(3);
        for (const r of rx.received) {
          const payload = verify(all.secret, r) as any;
          expect(payload).toMatchObject({ workspace_id: h.wsId, id: expect.stringMatching(/^evt_/), created_at: expect.any(String) });
          expect(r.sequence).toBe(String(payload.sequence));
        }
        expect(rx.received.map((r) => r.json.type).sort()).toEqual(['deal.created', 'deal.stage_changed', 'store.entered']);
        expect(rx.received.map((r) => r.json.sequence).sort()).toEqual([1, 2, 3]);
        expect(rx2.received).toHaveLength(1);
        expect(verify(deals.secret, rx2.received[0])).toMatchObject({ type: 'deal.stage_changed', sequence: 1, data: { deal_id: 'd1', from: 'lead', to: 'qualified' } });
        expect(() => verify(deals.secret, rx.received[0])).toThrow();
        // The log shows each message with its attempt.
        const entries = await log(all.id);
        expect(entries).toHaveLength(3);
        for (const e of entries) {
          expect(e).toMatchObject({ status: 'delivered', last_status_code: 200, next_retry_at: null });
          expect(e.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null, next_retry_at: null })]);
          expect(rx.received.map((r) => r.id)).toContain(e.id);
        }
        // Another workspace's events never reach this endpoint.
        const other = await (await import('../helpers/api.js')).workspace(h.db);
        await h.emit([{ type: 'deal.created' }], other.id);
        await settle(h.deliverer());
        expect(rx.received).toHaveLength(3);
      } finally {
        await rx2.close();
      }
    });

    it('retries a receiver answering 500 with backoff until it answers 200: delivered, nothing lost, one webhook-id', async () => {
      const ep = await endpoint();
      let failures = 3;
      rx.respond = () => (failures-- > 0 ? { status: 500 } : { status: 200 });
      await h.emit([{ type: 'store.exited', data: { store_id: 's9' } }]);
      const w = h.deliverer();
      await settle(w);
      expect(rx.received).toHaveLength(1);
      // Nothing is due before the schedule says so.
      h.clock.advance(RETRY_SCHEDULE_MS[0] - 1_000);
      await settle(w);
      expect(rx.received).toHaveLength(1);
      for (const wait of RETRY_SCHEDULE_MS.slice(0, 3)) {
        h.clock.advance(wait * 1.2);
        await settle(w);
      }
      expect(rx.received).toHaveLength(4);
      expect(new Set(rx.received.map((r) => r.id)).size).toBe(1);
      for (const r of rx.received) verify(ep.secret, r);
      const [entry] = await log(ep.id);
      expect(entry.status).toBe('delivered');
      expect(entry.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 500, 200]);
      expect(entry.attempts[0].next_retry_at).not.toBeNull();
    });

    it('marks a message failed once the schedule is exhausted, shows it in the log, and recover sends the backlog', async () => {
      const ep = await endpoint();
      rx.respond = () => ({ status: 0, drop: true }); // down: the connection closes unanswered
      const start = h.clock.now().toISOString();
      await h.emit([{ type: 'deal.created', data: { n: 1 } }, { type: 'deal.updated', data: { n: 2 } }]);
      const w = h.deliverer();
      await settle(w);
      for (const wait of RETRY_SCHEDULE_MS) {
        h.clock.advance(wait * 1.2);
        await settle(w);
      }
      expect(rx.received).toHaveLength(2 * (RETRY_SCHEDULE_MS.length + 1));
      let entries = await log(ep.id);
      expect(entries.map((e) => e.status)).toEqual(['failed', 'failed']);
      expect(entries[0].attempts).toHaveLength(RETRY_SCHEDULE_MS.length + 1);
      expect(entries[0]).toMatchObject({ last_status_code: null, last_error: expect.stringMatching(/socket hang up|ECONNRESET/), next_retry_at: null });
      // Nothing more is sent by itself.
      h.clock.advance(24 * HOUR);
      await settle(w);
      expect(rx.received).toHaveLength(16);
      // The receiver is back: recover the window.
      rx.respond = () => ({ status: 204 });
      const before = rx.received.length;
      const rec = await call(h.base, 'POST', `/webhooks/${ep.id}/recover`, { key: h.key, idem: freshIdem(), body: { since: start, until: h.clock.now().toISOString() } });
      expect(rec.status).toBe(200);
      expect(rec.body).toMatchObject({ object: 'webhook_recovery', scheduled: 2 });
      await settle(w);
      const resent = rx.received.slice(before);
      expect(resent.map((r) => r.json.data.n).sort()).toEqual([1, 2]);
      for (const r of resent) verify(ep.secret, r);
      entries = await log(ep.id);
      expect(entries.map((e) => e.status)).toEqual(['delivered', 'delivered']);
      // A window older than the 30-day retention is refused.
      const old = await call(h.base, 'POST', `/webhooks/${ep.id}/recover`, {
        key: h.key,
        idem: freshIdem(),
        body: { since: new Date(h.clock.now().getTime() - 31 * 24 * HOUR).toISOString(), until: h.clock.now().toISOString() },
      });
      expect(old.status).toBe(422);
    });

    it('counts a redirect as a failure without following it, and honours a longer Retry-After', async () => {
      const ep = await endpoint();
      rx.respond = (r): Answer => (r.json.data.n === 1 ? { status: 302, headers: { location: 'https://hooks.test/elsewhere' } } : { status: 503, headers: { 'retry-after': '3600' } });
      const t0 = h.clock.now().getTime();
      await h.emit([{ type: 'deal.created', data: { n: 1 } }]);
      h.clock.advance(1);
      await h.emit([{ type: 'deal.created', data: { n: 2 } }]);
      await settle(h.deliverer());
      expect(rx.received).toHaveLength(2);
      const entries = await log(ep.id);
      const byN = (n: number) => entries.find((e) => e.id === rx.received.find((r) => r.json.data.n === n)!.id);
      const [redirect, retryAfter] = [byN(1), byN(2)];
      expect(redirect).toMatchObject({ status: 'pending', last_status_code: 302, last_error: 'redirect (HTTP 302) not followed' });
      // The schedule's first wait is 5 s (±10%); the receiver asked for an hour.
      expect(Date.parse(redirect.next_retry_at) - t0).toBeLessThan(6_000);
      expect(retryAfter).toMatchObject({ status: 'pending', last_status_code: 503 });
      expect(Date.parse(retryAfter.next_retry_at) - t0).toBeGreaterThanOrEqual(3_600_000);
    });

    it('redelivers with the same webhook-id after a worker dies mid-delivery', async () => {
      const ep = await endpoint();
      rx.respond = () => ({ status: 200, hang: true });
      await h.emit([{ type: 'contact.created', data: { contact_id: 'c1' } }]);
      const first = h.deliverer({ workerId: 'first' });
      expect(await first.pump()).toBe(1);
      await until(() => rx.received.length === 1);
      first.abandon(); // killed: nothing recorded
      rx.respond = () => ({ status: 200 });
      const second = h.deliverer({ workerId: 'second' });
      // Within the lease nobody else sends it.
      expect(await second.pump()).toBe(0);
      h.clock.advance(LEASE_MS + 1);
      await settle(second);
      expect(rx.received).toHaveLength(2);
      expect(rx.received[1].id).toBe(rx.received[0].id);
      verify(ep.secret, rx.received[1]);
      const [entry] = await log(ep.id);
      expect(entry.status).toBe('delivered');
    });

    it('starts no query after stop(): a pump under way ends before fanning out, and stop() waits for it', async () => {
      await endpoint();
      await h.emit([{ type: 'contact.created', data: { contact_id: 'c1' } }]);
      const w = h.deliverer();
      const pumped = w.pump();
      await w.stop();
      expect(await pumped).toBe(0);
      expect(await w.pump()).toBe(0);
      const cursor = await h.db.kysely.selectFrom('outbox_sequences').select(['dispatched_seq', 'last_seq']).executeTakeFirstOrThrow();
      expect(Number(cursor.last_seq) - Number(cursor.dispatched_seq)).toBe(1);
      expect(rx.received).toHaveLength(0);
    });

    it('stop() waits for the sends in flight and records them', async () => {
      const ep = await endpoint();
      // The receiver answers only once stop() has been called: the send is in flight when it is.
      let answer!: () => void;
      rx.respond = () => ({ status: 200, after: new Promise<void>((r) => (answer = r)) });
      await h.emit([{ type: 'contact.created', data: { contact_id: 'c1' } }]);
      const w = h.deliverer();
      expect(await w.pump()).toBe(1);
      await until(() => rx.received.length === 1);
      const stopped = w.stop();
      answer();
      await stopped;
      expect(rx.received).toHaveLength(1);
      const [entry] = await log(ep.id);
      expect(entry.status).toBe('delivered');
    });

    it('a slow endpoint does not delay a fast one', async () => {
      const slowRx = await startReceiver();
      try {
        // The slow endpoint never answers while the test runs: every one of the fast endpoint's
        // messages must arrive while the slow one's sends are all still waiting (no wall clock).
        slowRx.respond = () => ({ status: 200, hang: true });
        await register({ url: slowRx.url('/slow') });
        const fast = await endpoint();
        await h.emit(Array.from({ length: 20 }, (_, i) => ({ type: 'store.signal' as const, data: { i } })));
        const w = h.deliverer();
        // Pump as the worker loop would (each settled send pumps again).
        const loop = setInterval(() => void w.pump(), 20);
        try {
          await until(() => rx.received.length === 20 && slowRx.received.length > 0, 60_000);
        } finally {
          clearInterval(loop);
        }
        expect(slowRx.received.length).toBeLessThanOrEqual(4);
        for (const r of rx.received) verify(fast.secret, r);
        w.abandon();
      } finally {
        await slowRx.close();
      }
    });

    /**
     * Endpoints with ten messages each, fanned out, in a workspace of their own per list of URLs;
     * then another workspace's endpoint on `rx` and one message for it, newer than that backlog.
     */
    const backlogAndAnother = async (urlsByWorkspace: string[][]) => {
      for (const urls of urlsByWorkspace) {
        const ws = await workspace(h.db);
        const key = await apiKey(h.db, ws.id, ['manage:webhooks']);
        for (const url of urls) expect((await call(h.base, 'POST', '/webhooks', { key, idem: freshIdem(), body: { url } })).status).toBe(201);
        await h.emit(Array.from({ length: 10 }, (_, i) => ({ type: 'store.signal' as const, data: { i } })), ws.id);
      }
      await h.db.write((trx) => fanOut(trx, h.db.dialect, h.clock.now()));
      const other = await workspace(h.db);
      const key = await apiKey(h.db, other.id, ['manage:webhooks']);
      const another = (await call(h.base, 'POST', '/webhooks', { key, idem: freshIdem(), body: { url: rx.url() } })).body as { secret: string };
      h.clock.advance(1);
      await h.emit([{ type: 'deal.created' }], other.id);
      return another;
    };

    it("sixteen dead endpoints of four workspaces, with a backlog, do not hold up another workspace's messages: an endpoint whose last attempt failed has one in flight", async () => {
      const deadRx = await startReceiver();
      try {
        // Their receivers take the first round and answer 503 when the test says; after that they never answer.
        let answer!: () => void;
        const firstRound = new Promise<void>((r) => (answer = r));
        let dead = false;
        deadRx.respond = () => (dead ? { status: 200, hang: true } : { status: 503, after: firstRound });
        const victim = await backlogAndAnother([0, 1, 2, 3].map((k) => [0, 1, 2, 3].map((i) => deadRx.url(`/dead${k}-${i}`))));
        const w = h.deliverer();
        // The first round fills the process's 64 sends with the dead endpoints' older messages.
        expect(await w.pump()).toBe(64);
        await until(() => deadRx.received.length === 64);
        dead = true;
        answer();
        await w.drain();
        // Before: the next turn sent four more of each dead endpoint's backlog (older than the other
        // workspace's message), every turn until that backlog was gone, 15 s a turn.
        expect(await w.pump()).toBe(17);
        await until(() => rx.received.length === 1);
        verify(victim.secret, rx.received[0]);
        await until(() => deadRx.received.length === 64 + 16);
        w.abandon();
      } finally {
        await deadRx.close();
      }
    });

    it("one workspace's slow receivers take at most half of a worker's sends: another workspace's message leaves at once", async () => {
      const slowRx = await startReceiver();
      try {
        // Sixteen endpoints whose receivers take their time (they answer nothing while the test runs), with a backlog.
        slowRx.respond = () => ({ status: 200, hang: true });
        const victim = await backlogAndAnother([Array.from({ length: 16 }, (_, i) => slowRx.url(`/slow${i}`))]);
        const w = h.deliverer();
        // Before: the slow endpoints' older messages took all 64 sends, and the other workspace's
        // message waited for them every turn until their backlog was gone.
        expect(await w.pump()).toBe(32 + 1);
        await until(() => rx.received.length === 1 && slowRx.received.length === 32);
        verify(victim.secret, rx.received[0]);
        expect(await w.pump()).toBe(0);
        w.abandon();
      } finally {
        await slowRx.close();
      }
    });

    it('answers an empty change (`{}`) 400 invalid-body naming the fields, as deals and contacts do, and leaves the endpoint as it was', async () => {
      const ep = await endpoint({ description: 'CRM' });
      const before = (await call(h.base, 'GET', `/webhooks/${ep.id}`, { key: h.key })).body;
      const r = await call(h.base, 'PATCH', `/webhooks/${ep.id}`, { key: h.key, idem: freshIdem(), body: {} });
      expect([r.status, r.contentType]).toEqual([400, expect.stringMatching(/^application\/problem\+json/)]);
      expect(r.body).toMatchObject({ type: 'https://storelens.dev/problems/invalid-body', detail: 'name at least one field to change (url, event_types, description or enabled)' });
      expect((await call(h.base, 'GET', `/webhooks/${ep.id}`, { key: h.key })).body).toEqual(before);
      // A field given null (clearing it) is a change.
      expect((await call(h.base, 'PATCH', `/webhooks/${ep.id}`, { key: h.key, idem: freshIdem(), body: { description: null } })).body).toMatchObject({ description: null });
    });

    it('stops delivering to a deleted or disabled endpoint; enabling resumes; 410 disables it and says why', async () => {
      const ep = await endpoint();
      const w = h.deliverer();
      const patch = (body: unknown) => call(h.base, 'PATCH', `/webhooks/${ep.id}`, { key: h.key, idem: freshIdem(), body });
      const off = await patch({ enabled: false });
      expect(off.body).toMatchObject({ enabled: false, disabled_reason: expect.stringMatching(/PATCH/) });
      const start = h.clock.now().toISOString();
      await h.emit([{ type: 'deal.created' }]);
      await settle(w);
      expect(rx.received).toHaveLength(0);
      // Nothing can be sent to it meanwhile: a test, a retry or a recovery says so (409), and schedules nothing.
      const test = await call(h.base, 'POST', `/webhooks/${ep.id}/test`, { key: h.key, idem: freshIdem() });
      expect([test.status, test.body.detail]).toEqual([409, expect.stringMatching(/is disabled .*enable it/)]);
      const recover = await call(h.base, 'POST', `/webhooks/${ep.id}/recover`, { key: h.key, idem: freshIdem(), body: { since: start, until: h.clock.now().toISOString() } });
      expect(recover.status).toBe(409);
      expect((await log(ep.id)).length).toBe(0);
      expect((await patch({ enabled: true })).body).toMatchObject({ enabled: true, disabled_reason: null });
      await h.emit([{ type: 'deal.updated' }]);
      await settle(w);
      expect(rx.received.map((r) => r.json.type)).toEqual(['deal.updated']);
      // 410 Gone disables.
      rx.respond = () => ({ status: 410 });
      await h.emit([{ type: 'deal.updated' }]);
      await settle(w);
      const got = (await call(h.base, 'GET', `/webhooks/${ep.id}`, { key: h.key })).body;
      expect(got).toMatchObject({ enabled: false, disabled_reason: expect.stringMatching(/410/) });
      const [gone] = await log(ep.id);
      const retry = await call(h.base, 'POST', `/webhooks/${ep.id}/deliveries/${gone.id}/retry`, { key: h.key, idem: freshIdem() });
      expect([retry.status, retry.body.detail]).toEqual([409, expect.stringMatching(/disabled \(.*410.*\)/)]);
      rx.respond = () => ({ status: 200 });
      await h.emit([{ type: 'deal.updated' }]);
      await settle(w);
      expect(rx.received).toHaveLength(2);
      // Deletion.
      await patch({ enabled: true });
      expect((await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key: h.key, idem: freshIdem() })).status).toBe(200);
      await h.emit([{ type: 'deal.updated' }]);
      await settle(w);
      expect(rx.received).toHaveLength(2);
      expect((await call(h.base, 'GET', `/webhooks/${ep.id}`, { key: h.key })).status).toBe(404);
    });

    it("prunes a deleted endpoint's pending messages once they are past retention, with their attempts", async () => {
      const ep = await endpoint();
      const kept = await endpoint();
      rx.respond = () => ({ status: 503 });
      const w = h.deliverer();
      await h.emit([{ type: 'deal.created' }]);
      await settle(w);
      const rows = () => h.db.kysely.selectFrom('webhook_deliveries').select(['endpoint_id', 'status']).orderBy('endpoint_id').execute();
      expect((await rows()).map((r) => r.status)).toEqual(['pending', 'pending']);
      expect((await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key: h.key, idem: freshIdem() })).status).toBe(200);
      h.clock.advance(31 * 24 * HOUR);
      await w.pump();
      await w.drain();
      // Before: the deleted endpoint's message stayed pending for ever (nothing sends it, and pending messages were never pruned).
      expect((await rows()).map((r) => r.endpoint_id)).toEqual([kept.id]);
      const attempts = await h.db.kysely.selectFrom('webhook_attempts').select('delivery_id').execute();
      const live = await h.db.kysely.selectFrom('webhook_deliveries').select('id').execute();
      expect(attempts.every((a) => live.some((d) => d.id === a.delivery_id))).toBe(true);
    });

    it('disables an endpoint whose every delivery failed for five days', async () => {
      const ep = await endpoint();
      rx.respond = () => ({ status: 500 });
      const w = h.deliverer();
      const enabled = async () => (await call(h.base, 'GET', `/webhooks/${ep.id}`, { key: h.key })).body.enabled;
      // An event every 10 hours, each failing as its retries do: failures never more than 12 hours apart.
      for (let step = 0; step < 12; step++) {
        await h.emit([{ type: 'deal.updated', data: { step } }]);
        await settle(w);
        h.clock.advance(10 * HOUR);
      }
      expect(await enabled()).toBe(true);
      await h.emit([{ type: 'deal.updated', data: { step: 12 } }]);
      await settle(w);
      const got = (await call(h.base, 'GET', `/webhooks/${ep.id}`, { key: h.key })).body;
      expect(got.enabled).toBe(false);
      expect(got.disabled_reason).toMatch(/5 days/);
    });

    it('keeps the failure streak of an endpoint that is on when a PATCH says enabled: true again', async () => {
      const ep = await endpoint();
      rx.respond = () => ({ status: 500 });
      const w = h.deliverer();
      for (let step = 0; step < 12; step++) {
        // A client re-asserting its whole configuration halfway through the receiver's outage.
        if (step === 6) expect((await call(h.base, 'PATCH', `/webhooks/${ep.id}`, { key: h.key, idem: freshIdem(), body: { url: rx.url(), enabled: true } })).status).toBe(200);
        await h.emit([{ type: 'deal.updated', data: { step } }]);
        await settle(w);
        h.clock.advance(10 * HOUR);
      }
      await h.emit([{ type: 'deal.updated', data: { step: 12 } }]);
      await settle(w);
      // Before, the PATCH restarted the streak: the endpoint stayed on after five days of failures.
      const got = (await call(h.base, 'GET', `/webhooks/${ep.id}`, { key: h.key })).body;
      expect([got.enabled, got.disabled_reason]).toEqual([false, expect.stringMatching(/5 days/)]);
    });

    it('does not disable a quiet endpoint for one failure days after its last one: a streak of failures needs no gap longer than 12 hours', async () => {
      const ep = await endpoint();
      rx.respond = () => ({ status: 500 });
      const w = h.deliverer();
      // A receiver down for a day: the message fails its every attempt (about 28 hours) and is given up.
      await h.emit([{ type: 'deal.created' }]);
      await settle(w);
      for (const wait of RETRY_SCHEDULE_MS) {
        h.clock.advance(wait);
        await settle(w);
      }
      expect((await log(ep.id)).map((m) => [m.status, m.attempts.length])).toEqual([['failed', 8]]);
      // No event for five days; then one, which fails once.
      h.clock.advance(5 * 24 * HOUR);
      await h.emit([{ type: 'deal.updated' }]);
      await settle(w);
      // Before, it was disabled: "every delivery failed for 5 days", since the first failure six days ago.
      const got = (await call(h.base, 'GET', `/webhooks/${ep.id}`, { key: h.key })).body;
      expect([got.enabled, got.disabled_reason]).toEqual([true, null]);
      expect(STREAK_GAP_MS).toBeGreaterThan(Math.max(...RETRY_SCHEDULE_MS) * (1 + JITTER));
      expect(STREAK_GAP_MS).toBeGreaterThan(RETRY_AFTER_CAP_MS);
    });

    it('signs with both secrets for 24 hours after a rotation, then with the new one only; a replayed rotation shows no secret', async () => {
      const ep = await endpoint();
      const idem = freshIdem();
      const rot = await call(h.base, 'POST', `/webhooks/${ep.id}/rotate-secret`, { key: h.key, idem });
      expect(rot.status).toBe(200);
      const fresh: string = rot.body.secret;
      expect(fresh).toMatch(/^whsec_/);
      expect(fresh).not.toBe(ep.secret);
      expect(rot.body.previous_secret_expires_at).not.toBeNull();
      const again = await call(h.base, 'POST', `/webhooks/${ep.id}/rotate-secret`, { key: h.key, idem });
      expect(again.body.secret).toBeNull();
      const w = h.deliverer();
      await h.emit([{ type: 'deal.created' }]);
      await settle(w);
      expect(rx.received[0].signature.split(' ')).toHaveLength(2);
      verify(ep.secret, rx.received[0]);
      verify(fresh, rx.received[0]);
      h.clock.advance(24 * HOUR + 1);
      await h.emit([{ type: 'deal.created' }]);
      await settle(w);
      expect(rx.received[1].signature.split(' ')).toHaveLength(1);
      verify(fresh, rx.received[1]);
      expect(() => verify(ep.secret, rx.received[1])).toThrow();
    });

    it('a second rotation within the 24 hours ends the oldest secret at once (how a leaked secret is cut off)', async () => {
      const ep = await endpoint();
      const first = await call(h.base, 'POST', `/webhooks/${ep.id}/rotate-secret`, { key: h.key, idem: freshIdem() });
      h.clock.advance(HOUR);
      const second = await call(h.base, 'POST', `/webhooks/${ep.id}/rotate-secret`, { key: h.key, idem: freshIdem() });
      expect([first.status, second.status]).toEqual([200, 200]);
      const w = h.deliverer();
      await h.emit([{ type: 'deal.created' }]);
      await settle(w);
      expect(rx.received[0].signature.split(' ')).toHaveLength(2);
      verify(second.body.secret, rx.received[0]);
      verify(first.body.secret, rx.received[0]);
      expect(() => verify(ep.secret, rx.received[0])).toThrow();
    });

    it('retry sends one message again with its webhook-id; test sends a signed test event; both appear in the log', async () => {
      const ep = await endpoint();
      const w = h.deliverer();
      const test = await call(h.base, 'POST', `/webhooks/${ep.id}/test`, { key: h.key, idem: freshIdem() });
      expect(test.status).toBe(200);
      expect(test.body).toMatchObject({ object: 'webhook_delivery', status: 'pending', event: { type: 'webhook.test' } });
      await settle(w);
      expect(verify(ep.secret, rx.received[0])).toMatchObject({ type: 'webhook.test', data: { endpoint_id: ep.id } });
      const retry = await call(h.base, 'POST', `/webhooks/${ep.id}/deliveries/${test.body.id}/retry`, { key: h.key, idem: freshIdem() });
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ id: test.body.id, status: 'pending', attempts: [expect.objectContaining({ attempt: 1, status_code: 200 })] });
      await settle(w);
      expect(rx.received.map((r) => r.id)).toEqual([test.body.id, test.body.id]);
      const [entry] = await log(ep.id);
      expect(entry.attempts).toHaveLength(2);
      expect((await call(h.base, 'POST', `/webhooks/${ep.id}/deliveries/msg_nope/retry`, { key: h.key, idem: freshIdem() })).status).toBe(404);
    });

    it('refuses to retry a message while a worker is sending it (409): that attempt\'s outcome would swallow the retry', async () => {
      const ep = await endpoint();
      const test = await call(h.base, 'POST', `/webhooks/${ep.id}/test`, { key: h.key, idem: freshIdem() });
      const nowMs = h.clock.now().getTime();
      // A worker has claimed it and is sending it now.
      expect(await h.db.write((trx) => claimDue(trx, h.db.dialect, { nowMs, leaseUntilMs: nowMs + LEASE_MS, workerId: 'busy', limit: 10, perEndpoint: 10 }))).toContain(test.body.id);
      const retry = await call(h.base, 'POST', `/webhooks/${ep.id}/deliveries/${test.body.id}/retry`, { key: h.key, idem: freshIdem() });
      expect(retry.status).toBe(409);
      expect(retry.body.detail).toMatch(/being sent right now/);
      // Once its lease has run out, the message can be retried.
      h.clock.advance(LEASE_MS + 1);
      expect((await call(h.base, 'POST', `/webhooks/${ep.id}/deliveries/${test.body.id}/retry`, { key: h.key, idem: freshIdem() })).status).toBe(200);
    });

    it('recovers a message a worker is sending on its last attempt: that attempt\'s outcome does not swallow the recovery', async () => {
      const ep = await endpoint();
      rx.respond = () => ({ status: 204 });
      const start = h.clock.now().toISOString();
      await h.emit([{ type: 'deal.created', data: { n: 1 } }]);
      await h.db.write((trx) => fanOut(trx, h.db.dialect, h.clock.now()));
      // Its schedule's last attempt: a failure now would end it for good.
      await h.db.write((trx) => trx.updateTable('webhook_deliveries').set({ attempts: RETRY_SCHEDULE_MS.length }).where('endpoint_id', '=', ep.id).execute());
      const nowMs = h.clock.now().getTime();
      const [id] = await h.db.write((trx) => claimDue(trx, h.db.dialect, { nowMs, leaseUntilMs: nowMs + LEASE_MS, workerId: 'busy', limit: 10, perEndpoint: 10 }));
      const rec = await call(h.base, 'POST', `/webhooks/${ep.id}/recover`, { key: h.key, idem: freshIdem(), body: { since: start, until: h.clock.now().toISOString() } });
      expect(rec.body).toMatchObject({ scheduled: 1 });
      // The send under way fails and is recorded after the recovery.
      const d = await h.db.kysely.selectFrom('webhook_deliveries').selectAll().where('id', '=', id!).executeTakeFirstOrThrow();
      await h.db.write((trx) => recordAttempt(trx, d, 'busy', { startedMs: nowMs, durationMs: 5, statusCode: 503, error: null, result: 'failed', nextAttemptMs: null }, nowMs + 5));
      let [entry] = await log(ep.id);
      expect(entry).toMatchObject({ status: 'pending' });
      expect(entry.attempts.map((a: any) => a.status_code)).toEqual([503]);
      // No second send while that lease lasts; after it, the recovered message goes out.
      await settle(h.deliverer());
      expect(rx.received).toHaveLength(0);
      h.clock.advance(LEASE_MS + 1);
      await settle(h.deliverer());
      expect(rx.received.map((r) => r.json.data.n)).toEqual([1]);
      [entry] = await log(ep.id);
      expect(entry).toMatchObject({ status: 'delivered' });
    });

    it('pages the delivery log with cursors', async () => {
      const ep = await endpoint();
      await h.emit(Array.from({ length: 7 }, (_, i) => ({ type: 'store.signal' as const, data: { i } })));
      await settle(h.deliverer());
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const q: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
        const r = await call(h.base, 'GET', `/webhooks/${ep.id}/deliveries${q}`, { key: h.key });
        expect(r.status).toBe(200);
        seen.push(...r.body.data.map((x: any) => x.id));
        cursor = r.body.next_cursor;
      } while (cursor);
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
      expect((await call(h.base, 'GET', `/webhooks/${ep.id}/deliveries?cursor=bogus`, { key: h.key })).status).toBe(400);
    });
  });
}
