/**
 * The SSRF guard (at registration and at every delivery, with an injected resolver: no DNS
 * here), two workers sharing one database, the server key, and the worker loop of `api` and
 * `storelens worker`.
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
import type { Env } from '../../src/core/env.js';
import { loadSecretBox, newSigningSecret } from '../../src/outbound/secrets.js';
import { resealAll } from '../../src/webhooks/reseal.js';
import { addressRefusal } from '../../src/outbound/ssrf.js';
import { apiKey, call, freshIdem, workspace } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { type Receiver, startReceiver, verify } from '../helpers/receiver.js';
import { until } from '../helpers/wait.js';
import { settle, startWebhooks, type WebhookHarness } from '../helpers/webhooks.js';

/** Addresses the guard refuses, each with the range its message names. */
const BLOCKED: [string, RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['127.8.9.10', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.5.4', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /link-local/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['224.0.0.251', /multicast/],
  ['240.0.0.1', /reserved/],
  ['192.0.2.10', /reserved/],
  ['0.0.0.0', /unspecified/],
  ['255.255.255.255', /broadcast/],
  ['::1', /loopback/],
  ['::', /unspecified/],
  ['fe80::1', /link-local/],
  ['fc00::1', /unique-local/],
  ['fd12:3456::1', /unique-local/],
  ['ff02::1', /multicast/],
  ['::ffff:127.0.0.1', /loopback.*ipv4Mapped|ipv4Mapped.*loopback|embedded in ::ffff:127\.0\.0\.1/],
  ['::ffff:10.0.0.1', /private/],
  ['2002:7f00:1::1', /loopback/], // 6to4 of 127.0.0.1
  ['2002:c0a8:101::1', /private/], // 6to4 of 192.168.1.1
  ['64:ff9b::a00:1', /private/], // NAT64 of 10.0.0.1
  ['64:ff9b::7f00:1', /loopback/], // NAT64 of 127.0.0.1
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /teredo/],
  ['2001:db8::1', /reserved/],
];
const PUBLIC = ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34', '2002:5db8:d822::1'];

describe('addressRefusal', () => {
  it.each(BLOCKED)('refuses %s', (address, why) => {
    expect(addressRefusal(address, false)).toMatch(why);
  });
  it.each(PUBLIC)('admits public %s', (address) => {
    expect(addressRefusal(address, false)).toBeNull();
  });
  it('admits loopback only with the local-development setting, and nothing else private', () => {
    expect(addressRefusal('127.0.0.1', true)).toBeNull();
    expect(addressRefusal('::1', true)).toBeNull();
    expect(addressRefusal('10.0.0.1', true)).toMatch(/private/);
    expect(addressRefusal('169.254.169.254', true)).toMatch(/link-local/);
  });
});

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
      expect((await register('https://public.test/hook')).status).toBe(200);
      // A change of URL is checked too.
      const ep = (await register('https://public.test/hook2')).body;
      const patched = await call(h.base, 'PATCH', `/webhooks/${ep.id}`, { key: h.key, idem: freshIdem(), body: { url: 'https://127.0.0.1/' } });
      expect(patched.status).toBe(422);
      expect(await h.db.kysely.selectFrom('webhook_endpoints').select('url').where('id', '=', ep.id).executeTakeFirst()).toEqual({ url: 'https://public.test/hook2' });
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
          await until(() => rx.received.length >= 3 * N, 30_000);
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
    }, 60_000);
  });
}

describe('the server key', () => {
  it('seals secrets under STORELENS_SECRET_KEY, reseals older values after a rotation, and refuses an unknown key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storelens-key-'));
    const db = await openDatabase({ dbPath: join(dir, 'k.db') });
    try {
      const ws = await workspace(db);
      const generated = await loadSecretBox(db.kysely);
      const secret = newSigningSecret();
      const ep = await insertWebhookEndpoint(db.kysely, ws.id, { url: 'https://example.com/h', sealedSecret: generated.seal(secret) }, new Date());
      expect(ep.secret).not.toContain(secret.slice(6));
      const k1 = 'a'.repeat(64);
      const k2 = Buffer.alloc(32, 7).toString('base64');
      // Moving from the generated key to an environment key: the stored key still opens old values.
      const box1 = await loadSecretBox(db.kysely, { key: k1 });
      expect(await resealAll(db.kysely, box1)).toBe(1);
      const row1 = await db.kysely.selectFrom('webhook_endpoints').select('secret').where('id', '=', ep.id).executeTakeFirstOrThrow();
      expect(box1.isCurrent(row1.secret)).toBe(true);
      expect(box1.open(row1.secret)).toBe(secret);
      // Rotation k1 → k2 with the previous key named.
      const box2 = await loadSecretBox(db.kysely, { key: k2, previous: k1 });
      expect(await resealAll(db.kysely, box2)).toBe(1);
      const row2 = await db.kysely.selectFrom('webhook_endpoints').select('secret').where('id', '=', ep.id).executeTakeFirstOrThrow();
      expect(box2.open(row2.secret)).toBe(secret);
      // A value under a key nobody names cannot be opened (and says what to do).
      await db.kysely.deleteFrom('settings').where('name', '=', 'webhook_secret_key').execute();
      const stranger = await loadSecretBox(db.kysely, { key: 'b'.repeat(64) });
      expect(() => stranger.open(row2.secret)).toThrow(/STORELENS_SECRET_KEY_PREVIOUS/);
      // A plain secret of an older version is sealed at start.
      await db.kysely.updateTable('webhook_endpoints').set({ secret }).where('id', '=', ep.id).execute();
      expect(await resealAll(db.kysely, box2)).toBe(1);
      const row3 = await db.kysely.selectFrom('webhook_endpoints').select('secret').where('id', '=', ep.id).executeTakeFirstOrThrow();
      expect(row3.secret.startsWith('whsec_')).toBe(false);
      expect(box2.open(row3.secret)).toBe(secret);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

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
    const api = await runApi({ port: 0, host: '127.0.0.1', db: join(dir, 'api.db'), webhooksAllowLocal: true }, env, false);
    const db = await openDatabase({ dbPath: join(dir, 'api.db') });
    try {
      const ws = await workspace(db);
      const key = await apiKey(db, ws.id, ['manage:webhooks']);
      const reg = await call(api.url, 'POST', '/webhooks', { key, idem: freshIdem(), body: { url: rx.url() } });
      expect(reg.status).toBe(200);
      const t0 = Date.now();
      const test = await call(api.url, 'POST', `/webhooks/${reg.body.id}/test`, { key, idem: freshIdem() });
      await until(() => rx.received.length === 1, 5_000);
      expect(Date.now() - t0).toBeLessThan(1_000);
      expect(rx.received[0].id).toBe(test.body.id);
      verify(reg.body.secret, rx.received[0]);
      await until(async () => (await call(api.url, 'GET', `/webhooks/${reg.body.id}/deliveries`, { key })).body.data[0]?.status === 'delivered', 5_000);
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
      await until(() => rx.received.length === 1, 5_000);
      expect(verify(secret, rx.received[0])).toMatchObject({ type: 'watch.health_changed', data: { to: 'degraded' } });
      expect(env.err.join('')).toMatch(/storelens worker: delivering webhook events from SQLite .*local development/);
    } finally {
      await worker.close();
      await db.close();
    }
  });
});
