/**
 * The SSRF guard of the webhook routes and the delivery (at registration and at every delivery,
 * with an injected resolver: no DNS here), two workers sharing one database, and the worker loop
 * of `api` and `storelens worker`. The guard's address rules are test/outbound/ssrf.test.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApi } from '../../src/commands/api.js';
import { runWorker } from '../../src/commands/worker.js';
import { openDatabase } from '../../src/compose/database.js';
import { appendUncheckedEvents } from '../../src/webhooks/outbox.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { loadSecretBox, newSigningSecret } from '../../src/outbound/secrets.js';
import type { Env } from '../../src/core/env.js';
import { apiKey, call, freshIdem, workspace } from '../helpers/api.js';
import { BLOCKED } from '../helpers/addresses.js';
import { dialects } from '../helpers/db.js';
import { type Receiver, startReceiver, verify } from '../helpers/receiver.js';
import { until } from '../helpers/wait.js';
import { settle, startWebhooks, type WebhookHarness } from '../helpers/webhooks.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`the SSRF guard (${d.label})`, () => {
    let h: WebhookHarness;
    let rx: Receiver;
    beforeEach(async () => {
      h = await startWebhooks(d.name, { allowLocal: false });
      rx = await startReceiver();
    });
    afterEach(async () => {
      await rx.close();
      await h.close();
    });
    const register = (url: string) => call(h.base, 'POST', '/webhooks', { key: h.key, idem: freshIdem(), body: { url } });

    it('refuses at registration every blocked range, by name and as a literal, and http and unresolvable hosts', async () => {
      for (const [address, why] of BLOCKED) {
        h.dns.set('evil.test', [address]);
        const byName = await register('https://evil.test/hook');
        expect(byName.status, address).toBe(422);
        expect(byName.body.detail).toMatch(why);
        const literal = await register(`https://${address.includes(':') ? `[${address}]` : address}/hook`);
        expect(literal.status, address).toBe(422);
      }
      // One bad address among good ones is enough to refuse.
      h.dns.set('mixed.test', ['93.184.216.34', '127.0.0.1']);
      expect((await register('https://mixed.test/')).status).toBe(422);
      // The receiver's own name resolves to 127.0.0.1: refused without the setting.
      expect((await register(rx.url())).status).toBe(422);
      expect((await register('http://public.test/')).body.detail).toMatch(/only https/);
      expect((await register('https://nowhere.test/')).body.detail).toMatch(/does not resolve/);
      h.dns.set('public.test', ['93.184.216.34']);
      expect((await register('https://public.test/hook')).status).toBe(201);
      // A change of URL is checked too.
      const ep = (await register('https://public.test/hook2')).body;
      const patched = await call(h.base, 'PATCH', `/webhooks/${ep.id}`, { key: h.key, idem: freshIdem(), body: { url: 'https://127.0.0.1/' } });
      expect(patched.status).toBe(422);
      expect(await h.db.kysely.selectFrom('webhook_endpoints').select('url').where('id', '=', ep.id).executeTakeFirst()).toEqual({ url: 'https://public.test/hook2' });
    });

    it('keeps no answer for a host that does not resolve yet: the same request with the same key runs once it does', async () => {
      const idem = freshIdem();
      const first = await call(h.base, 'POST', '/webhooks', { key: h.key, idem, body: { url: 'https://soon.test/hook' } });
      expect(first.status).toBe(422);
      expect(first.body.detail).toMatch(/does not resolve/);
      // A refused address, by contrast, is the operation's answer: replayed with its key.
      h.dns.set('private.test', ['10.0.0.1']);
      const privateIdem = freshIdem();
      await call(h.base, 'POST', '/webhooks', { key: h.key, idem: privateIdem, body: { url: 'https://private.test/hook' } });
      h.dns.set('private.test', ['93.184.216.34']);
      const replayed = await call(h.base, 'POST', '/webhooks', { key: h.key, idem: privateIdem, body: { url: 'https://private.test/hook' } });
      expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([422, 'true']);
      h.dns.set('soon.test', ['93.184.216.34']);
      const again = await call(h.base, 'POST', '/webhooks', { key: h.key, idem, body: { url: 'https://soon.test/hook' } });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect(again.body).toMatchObject({ url: 'https://soon.test/hook' });
    });

    it('checks again at every delivery: a name that now resolves to a blocked address is never connected to', async () => {
      h.dns.set('hooks.test', ['93.184.216.34']);
      const ep = (await register(rx.url())).body;
      expect(ep.id).toMatch(/^whe_/);
      const w = h.deliverer();
      for (const [address, why] of BLOCKED.slice(0, 14)) {
        h.dns.set('hooks.test', [address]);
        h.clock.advance(1); // the log is newest first
        await h.emit([{ type: 'deal.created', data: { address } }]);
        await settle(w);
        const [latest] = (await call(h.base, 'GET', `/webhooks/${ep.id}/deliveries?limit=1`, { key: h.key })).body.data;
        expect(latest.attempts[0].error, address).toMatch(/^refused: /);
        expect(latest.attempts[0].error, address).toMatch(why);
        expect(latest.status).toBe('pending');
      }
      expect(rx.received).toHaveLength(0);
    });
  });

  describe.skipIf(d.skip)(`name resolution within a deadline (${d.label})`, () => {
    let h: WebhookHarness;
    let rx: Receiver;
    beforeEach(async () => {
      // A resolver that never answers is given up on after 20 ms (5 s in production).
      h = await startWebhooks(d.name, { resolveTimeoutMs: 20 });
      rx = await startReceiver();
    });
    afterEach(async () => {
      await rx.close();
      await h.close();
    });

    it('fails an attempt whose host does not answer in time, retries it per schedule, and sends to the other endpoints meanwhile', async () => {
      const hung = (await call(h.base, 'POST', '/webhooks', { key: h.key, idem: freshIdem(), body: { url: rx.url('/hung') } })).body;
      const other = (await call(h.base, 'POST', '/webhooks', { key: h.key, idem: freshIdem(), body: { url: rx.url('/other').replace('hooks.test', '127.0.0.1') } })).body;
      const w = h.deliverer();
      h.hang.add('hooks.test');
      await h.emit([{ type: 'deal.created' }]);
      // Before, this attempt waited for the resolver for ever (settle never returned), its claim's lease ran out, and another worker sent it again.
      await settle(w);
      const [sent] = (await call(h.base, 'GET', `/webhooks/${other.id}/deliveries`, { key: h.key })).body.data;
      expect([sent.status, rx.received.map((m) => m.id)]).toEqual(['delivered', [sent.id]]);
      const [first] = (await call(h.base, 'GET', `/webhooks/${hung.id}/deliveries`, { key: h.key })).body.data;
      expect(first).toMatchObject({ status: 'pending', attempts: [{ status_code: null, error: 'refused: the host hooks.test did not resolve within 0.02 s' }] });
      expect(Date.parse(first.next_retry_at) - Date.parse(first.attempts[0].at)).toBe(5_000);
      // The worker goes on: once the name answers, the retry is delivered.
      h.hang.delete('hooks.test');
      h.clock.advance(5_000);
      await settle(w);
      expect(rx.received.map((m) => m.id)).toEqual([sent.id, first.id]);
      expect((await call(h.base, 'GET', `/webhooks/${hung.id}/deliveries`, { key: h.key })).body.data[0].status).toBe('delivered');
    });

    it('answers a registration whose host does not answer in time as one that does not resolve: 422, not kept with the Idempotency-Key', async () => {
      h.hang.add('hooks.test');
      const idem = freshIdem();
      const first = await call(h.base, 'POST', '/webhooks', { key: h.key, idem, body: { url: rx.url() } });
      expect([first.status, first.body.detail]).toEqual([422, expect.stringMatching(/the host hooks.test did not resolve within 0.02 s.*send the same request again once the name resolves/)]);
      const ep = (await call(h.base, 'POST', '/webhooks', { key: h.key, idem: freshIdem(), body: { url: rx.url().replace('hooks.test', '127.0.0.1') } })).body;
      const patched = await call(h.base, 'PATCH', `/webhooks/${ep.id}`, { key: h.key, idem: freshIdem(), body: { url: rx.url() } });
      expect([patched.status, patched.body.detail]).toEqual([422, expect.stringMatching(/did not resolve within 0.02 s/)]);
      h.hang.delete('hooks.test');
      const again = await call(h.base, 'POST', '/webhooks', { key: h.key, idem, body: { url: rx.url() } });
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, null]);
    });
  });

  describe.skipIf(d.skip)(`two workers on one database (${d.label})`, () => {
    it('never send one message twice at once, and deliver everything exactly once while leases hold', async () => {
      const h = await startWebhooks(d.name, { poolSize: 20 });
      const rx = await startReceiver();
      try {
        rx.respond = () => ({ status: 200, delayMs: 5 });
        const eps = [];
        for (let i = 0; i < 3; i++) eps.push((await call(h.base, 'POST', '/webhooks', { key: h.key, idem: freshIdem(), body: { url: rx.url(`/h${i}`) } })).body);
        const N = 150;
        for (let i = 0; i < N; i += 25) await h.emit(Array.from({ length: 25 }, (_, j) => ({ type: 'store.signal' as const, data: { i: i + j } })));
        const a = h.deliverer({ workerId: 'a', perEndpoint: 50, maxInFlight: 32 });
        const b = h.deliverer({ workerId: 'b', perEndpoint: 50, maxInFlight: 32 });
        const loop = (w: typeof a) => setInterval(() => void w.pump().catch(() => undefined), 3);
        const la = loop(a);
        const lb = loop(b);
        try {
          // 450 signed HTTPS sends: minutes on a loaded machine (30 s was exceeded at load 12). The
          // clock the leases read never moves, so the wait changes nothing but the time to fail.
          await until(() => rx.received.length >= 3 * N, 180_000);
        } finally {
          clearInterval(la);
          clearInterval(lb);
        }
        await a.drain();
        await b.drain();
        expect(Math.max(...rx.concurrentMax.values())).toBe(1);
        const ids = rx.received.map((r) => r.id);
        expect(new Set(ids).size).toBe(3 * N);
        expect(ids).toHaveLength(3 * N);
        const byWorker = await h.db.kysely.selectFrom('webhook_deliveries').select(['status']).execute();
        expect(byWorker.every((r) => r.status === 'delivered')).toBe(true);
        // Sequence numbers per endpoint are 1..N without gaps.
        for (const ep of eps) {
          const rows = await h.db.kysely.selectFrom('webhook_deliveries').select('seq').where('endpoint_id', '=', ep.id).orderBy('seq').execute();
          expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: N }, (_, i) => i + 1));
        }
        await a.stop();
        await b.stop();
      } finally {
        await rx.close();
        await h.close();
      }
    }, 240_000);
  });
}

function quietEnv(vars: Record<string, string> = {}): Env & { err: string[] } {
  const err: string[] = [];
  return {
    env: vars,
    stdout: new Writable({ write: (_c, _e, cb) => cb() }),
    stderr: new Writable({ write: (c, _e, cb) => (err.push(String(c)), cb()) }),
    now: () => new Date(),
    err,
  };
}

describe('the worker loop', () => {
  let dir: string;
  let rx: Receiver;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'storelens-worker-'));
    rx = await startReceiver({ tls: false, host: '127.0.0.1' });
  });
  afterEach(async () => {
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('`api` delivers on its own worker loop: a test event leaves as soon as the request commits', async () => {
    const env = quietEnv();
    // Delivery alone, its periodic turn an hour away: only the committed write's trigger can send it (no wall clock).
    const loop = { only: ['deliver'], deliverEveryMs: 3_600_000 };
    const api = await runApi({ port: 0, host: '127.0.0.1', db: join(dir, 'api.db'), webhooksAllowLocal: true, loop }, env, false);
    const db = await openDatabase({ dbPath: join(dir, 'api.db') });
    try {
      const ws = await workspace(db);
      const key = await apiKey(db, ws.id, ['manage:webhooks']);
      const reg = await call(api.url, 'POST', '/webhooks', { key, idem: freshIdem(), body: { url: rx.url() } });
      expect(reg.status).toBe(201);
      const test = await call(api.url, 'POST', `/webhooks/${reg.body.id}/test`, { key, idem: freshIdem() });
      await until(() => rx.received.length === 1);
      expect(rx.received[0].id).toBe(test.body.id);
      verify(reg.body.secret, rx.received[0]);
      // Each look is a read of the key's 120 a minute: every 250 ms, not every 10 ms.
      await until(async () => (await call(api.url, 'GET', `/webhooks/${reg.body.id}/deliveries`, { key })).body.data[0]?.status === 'delivered', undefined, 250);
    } finally {
      await db.close();
      await api.close();
    }
  });

  it('`storelens worker` delivers events another process wrote, and says what it does', async () => {
    const path = join(dir, 'w.db');
    const db = await openDatabase({ dbPath: path });
    const env = quietEnv();
    const worker = await runWorker({ db: path, webhooksAllowLocal: true }, env, false);
    try {
      const ws = await workspace(db);
      const box = await loadSecretBox(db.kysely);
      const secret = newSigningSecret();
      await insertWebhookEndpoint(db.kysely, ws.id, { url: rx.url(), sealedSecret: box.seal(secret) }, new Date(Date.now() - 1000));
      await db.write((trx) => appendUncheckedEvents(trx, [{ workspace_id: ws.id, type: 'watch.health_changed', data: { watch_id: 'w1', from: 'healthy', to: 'degraded' } }], new Date()));
      await until(() => rx.received.length === 1);
      expect(verify(secret, rx.received[0])).toMatchObject({ type: 'watch.health_changed', data: { to: 'degraded' } });
      expect(env.err.join('')).toMatch(/storelens worker: delivering webhook events from SQLite .*local development/);
    } finally {
      await worker.close();
      await db.close();
    }
  });
});
