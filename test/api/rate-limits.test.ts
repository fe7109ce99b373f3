import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addActivation } from '../../src/workspaces/store.js';
import type { AddressInfo } from 'node:net';
import { buildApiApp } from '../../src/compose/api-app.js';
import { openDatabase } from '../../src/compose/database.js';
import { dialects } from '../helpers/db.js';
import { capabilityManifest, WORKING, type CapabilityManifest } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { SETTLE } from '../helpers/wait.js';

/** The working operations, and the report operation behind an activation these tests give. */
const OPERATIONS = { ...WORKING, request_growth_report: { availability: 'activation-gated', activation: 'growth_reports' } } as const;

for (const d of dialects) {
  describe.skipIf(d.skip)(`rate limits on ${d.label}`, () => {
    let h: Harness;
    let caps: CapabilityManifest;
    let wsId: string;
    beforeAll(async () => {
      caps = capabilityManifest(OPERATIONS);
      h = await startApi(d.name, { capabilitiesPath: caps.path });
      wsId = (await workspace(h.db)).id;
    });
    afterAll(async () => {
      await h?.close();
      caps?.remove();
    });

    it('answers the 121st read in a minute with 429 and Retry-After, and serves again in the next window', async () => {
      h.clock.set('2026-03-01T12:00:15.000Z');
      const key = await apiKey(h.db, wsId, ['read:accounts']);
      for (let i = 1; i <= 120; i++) {
        const r = await call(h.base, 'GET', '/accounts?limit=1', { key });
        expect(r.status, `read ${i}`).toBe(200);
        if (i === 1) {
          expect(r.headers.get('ratelimit-policy')).toBe('"read";q=120;w=60');
          expect(r.headers.get('ratelimit')).toBe('"read";r=119;t=45');
        }
      }
      h.clock.set('2026-03-01T12:00:59.200Z');
      const over = await call(h.base, 'GET', '/accounts?limit=1', { key });
      expect(over.status).toBe(429);
      expect(over.contentType).toMatch(/problem\+json/);
      expect(over.body.type).toBe('https://storelens.dev/problems/rate-limited');
      expect(over.headers.get('retry-after')).toBe('1');
      expect(over.headers.get('ratelimit')).toBe('"read";r=0;t=1');
      h.clock.set('2026-03-01T12:01:00.000Z');
      const next = await call(h.base, 'GET', '/accounts?limit=1', { key });
      expect(next.status).toBe(200);
      expect(next.headers.get('ratelimit')).toBe('"read";r=119;t=60');
    });

    it('limits writes to 20 a minute per key, independently of reads and of other keys', async () => {
      h.clock.set('2026-03-01T13:00:00.000Z');
      const key = await apiKey(h.db, wsId, ['read:accounts', 'write:outcomes']);
      const other = await apiKey(h.db, wsId, ['write:outcomes']);
      for (let i = 1; i <= 20; i++) {
        expect((await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 's', action: 'won' } })).status).toBe(200);
      }
      const over = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 's', action: 'won' } });
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('60');
      expect(over.headers.get('ratelimit-policy')).toBe('"write";q=20;w=60');
      expect((await call(h.base, 'GET', '/accounts', { key })).status).toBe(200);
      expect((await call(h.base, 'POST', '/outcomes', { key: other, idem: freshIdem(), body: { store_id: 's', action: 'won' } })).status).toBe(200);
    });

    it('answers the 21st DELETE /webhooks/{id} in a minute with 429', async () => {
      h.clock.set('2026-03-01T13:30:00.000Z');
      const key = await apiKey(h.db, wsId, ['manage:webhooks']);
      for (let i = 0; i < 20; i++) expect((await call(h.base, 'DELETE', `/webhooks/whe_${i}`, { key, idem: freshIdem() })).status).toBe(404);
      const over = await call(h.base, 'DELETE', '/webhooks/whe_x', { key, idem: freshIdem() });
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('60');
    });

    it('checks the limit before the Idempotency-Key and the body', async () => {
      h.clock.set('2026-03-01T14:00:00.000Z');
      const key = await apiKey(h.db, wsId, ['write:outcomes']);
      for (let i = 0; i < 20; i++) await call(h.base, 'POST', '/outcomes', { key, body: {} });
      expect((await call(h.base, 'POST', '/outcomes', { key, body: {} })).status).toBe(429);
    });

    it('limits report calls to 5 a minute', async () => {
      h.clock.set('2026-03-01T15:00:00.000Z');
      const ws = await workspace(h.db);
      await h.db.write((trx) => addActivation(trx, ws.id, 'growth_reports'));
      const key = await apiKey(h.db, ws.id, ['generate:reports']);
      const statuses: number[] = [];
      // A body without store_id: each call within the limit gets past it to the body check (400), whatever the operation does.
      for (let i = 0; i < 6; i++) statuses.push((await call(h.base, 'POST', '/reports/growth', { key, idem: freshIdem(), body: {} })).status);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    });

    it('shares the counters between api processes on one database: never more than the limit together', async () => {
      h.clock.set('2026-03-01T16:00:00.000Z');
      const key = await apiKey(h.db, wsId, ['read:accounts']);
      const db2 = await openDatabase({ dbPath: h.t.dbPath, databaseUrl: h.t.databaseUrl });
      const app2 = await buildApiApp({ db: db2, now: h.clock.now, capabilitiesPath: caps.path });
      await app2.listen({ port: 0, host: '127.0.0.1' });
      const base2 = `http://127.0.0.1:${(app2.server.address() as AddressInfo).port}/api/v1`;
      try {
        for (let i = 0; i < 60; i++) {
          expect((await call(h.base, 'GET', '/accounts?limit=1', { key })).status).toBe(200);
          expect((await call(base2, 'GET', '/accounts?limit=1', { key })).status).toBe(200);
        }
        expect((await call(base2, 'GET', '/accounts?limit=1', { key })).status).toBe(429);
        expect((await call(h.base, 'GET', '/accounts?limit=1', { key })).status).toBe(429);
        const stored = await h.db.kysely.selectFrom('rate_counters').select('count').where('window_ms', '=', Date.parse('2026-03-01T16:00:00.000Z')).executeTakeFirst();
        expect(Number(stored?.count)).toBe(120);
      } finally {
        await app2.close();
        await db2.close();
      }
    });

    it.runIf(d.name === 'SQLite')('answers calls out of its lease while another writer holds the database, and waits once the lease is spent', async () => {
      h.clock.set('2026-03-01T17:00:00.000Z');
      const key = await apiKey(h.db, wsId, ['read:accounts']);
      const stored = async () => Number((await h.db.kysely.selectFrom('rate_counters').select('count').where('window_ms', '=', Date.parse('2026-03-01T17:00:00.000Z')).executeTakeFirst())?.count ?? 0);
      // The window's first call in a process waits for its lease: itself and 12 calls besides.
      expect((await call(h.base, 'GET', '/accounts?limit=1', { key })).status).toBe(200);
      expect(await stored()).toBe(13);
      // A re-ranking's write, say: the one SQLite write lock is taken.
      const writer = new Sqlite(h.t.dbPath!);
      writer.exec('begin immediate');
      let answered = false;
      let late: Promise<Awaited<ReturnType<typeof call>>> | undefined;
      try {
        // Out of the lease, nothing written: answered meanwhile (the next lease waits for the lock).
        for (let i = 2; i <= 13; i++) {
          const r = await call(h.base, 'GET', '/accounts?limit=1', { key });
          expect(r.status, `call ${i}`).toBe(200);
          expect(r.headers.get('ratelimit')).toBe(`"read";r=${120 - i};t=60`);
        }
        expect(await stored()).toBe(13);
        // The lease spent: the 14th call waits for the database.
        late = call(h.base, 'GET', '/accounts?limit=1', { key }).then((x) => ((answered = true), x));
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(answered).toBe(false);
      } finally {
        writer.exec('commit');
        writer.close();
      }
      const r = await late!;
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit')).toBe('"read";r=106;t=60');
      await vi.waitFor(async () => expect(await stored()).toBe(26), SETTLE);
    });

    it('does not rate-limit openapi.json', async () => {
      for (let i = 0; i < 130; i++) expect((await call(h.base, 'GET', '/openapi.json')).status).toBe(200);
    });
  });
}
