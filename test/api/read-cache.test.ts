import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiApp } from '../../src/compose/api-app.js';
import { revokeApiKey } from '../../src/api/keys-store.js';
import { importAccounts } from '../../src/accounts/store.js';
import { openDatabase } from '../../src/compose/database.js';
import { dialects } from '../helpers/db.js';
import { apiKey, call, startApi, workspace, type Harness } from '../helpers/api.js';

const LIFTED = { read: 100_000, write: 100_000, report: 100_000 };

// GET /accounts pages are reused while the workspace's accounts and ranking stay as they were;
// every check before the handler (auth, revocation, scope, limits) still runs on every call.
for (const d of dialects) {
  describe.skipIf(d.skip)(`reused account pages on ${d.label}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: LIFTED });
    });
    afterAll(async () => h?.close());

    async function seeded() {
      const ws = await workspace(h.db);
      await importAccounts(h.db, ws.id, Array.from({ length: 10 }, (_, i) => ({ store_id: `s${i}`, score: 10 - i, domain: `old-${i}.example` })), new Date());
      return { ws, key: await apiKey(h.db, ws.id, ['read:accounts']) };
    }

    const delivered = async (wsId: string, storeId: string) =>
      (await h.db.kysely.selectFrom('accounts').select('delivered_to_agent').where('workspace_id', '=', wsId).where('store_id', '=', storeId).executeTakeFirstOrThrow())
        .delivered_to_agent;

    it('sends a page gzipped to a caller that accepts gzip, and as it is to one that does not', async () => {
      const { key } = await seeded();
      const raw = async (acceptEncoding?: string) => {
        const headers: Record<string, string> = { authorization: `Bearer ${key}` };
        if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
        // node:http, not fetch: fetch would undo the gzip before the test could see it.
        return new Promise<{ status: number; headers: import('node:http').IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
          const req = httpRequest(`${h.base}/accounts?limit=5`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
          });
          req.on('error', reject);
          req.end();
        });
      };
      const plain = await raw();
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      const page = JSON.parse(plain.bytes.toString('utf8'));
      expect(page.data).toHaveLength(5);
      // Codings are case-insensitive, x-gzip is gzip (RFC 9110 §8.4.1), `*` stands for what is not named.
      for (const accept of ['gzip', 'gzip, deflate, br', 'br;q=1, gzip;q=0.5', 'GZIP', 'x-gzip', '*']) {
        const zipped = await raw(accept);
        expect(zipped.status).toBe(200);
        expect(zipped.headers['content-encoding']).toBe('gzip');
        expect(zipped.headers.vary).toMatch(/accept-encoding/i);
        expect(JSON.parse(gunzipSync(zipped.bytes).toString('utf8'))).toEqual(page);
      }
      for (const accept of ['identity', 'gzip;q=0', 'br', 'gzip;q=0, *', 'gzip;q=0.5, identity']) {
        const asIs = await raw(accept);
        expect(asIs.headers['content-encoding']).toBeUndefined();
        expect(JSON.parse(asIs.bytes.toString('utf8'))).toEqual(page);
      }
    });

    it('serves the same page again, and changed or new accounts on the next call after a change', async () => {
      const { ws, key } = await seeded();
      const first = await call(h.base, 'GET', '/accounts?limit=5', { key });
      const again = await call(h.base, 'GET', '/accounts?limit=5', { key });
      expect(again.body).toEqual(first.body);
      await importAccounts(h.db, ws.id, [{ store_id: 's0', score: 10, domain: 'new-0.example' }, { store_id: 'top', score: 99 }], new Date());
      expect(await delivered(ws.id, 'top')).toBe(0);
      const after = await call(h.base, 'GET', '/accounts?limit=5', { key });
      expect(after.body.data.map((a: any) => a.store_id)).toEqual(['top', 's0', 's1', 's2', 's3']);
      expect(after.body.data[1].domain).toBe('new-0.example');
      expect(after.body.data[0].delivered_to_agent).toBe(true);
      expect(await delivered(ws.id, 'top')).toBe(1);
    });

    it('sees a change made by another api process', async () => {
      const { ws, key } = await seeded();
      const other = await openDatabase({ dbPath: h.t.dbPath, databaseUrl: h.t.databaseUrl });
      const otherApp = await buildApiApp({ db: other, now: h.clock.now, rateLimits: LIFTED });
      try {
        const get = async () => JSON.parse((await otherApp.inject({ method: 'GET', url: '/api/v1/accounts?limit=3', headers: { authorization: `Bearer ${key}` } })).body);
        expect((await get()).data[0].domain).toBe('old-0.example');
        await importAccounts(h.db, ws.id, [{ store_id: 's0', score: 10, domain: 'moved.example' }], new Date());
        expect((await get()).data[0].domain).toBe('moved.example');
      } finally {
        await otherApp.close();
        await other.close();
      }
    });

    it('refuses a revoked key on its next call even when the page is reused', async () => {
      const { ws, key } = await seeded();
      expect((await call(h.base, 'GET', '/accounts?limit=4', { key })).status).toBe(200);
      expect((await call(h.base, 'GET', '/accounts?limit=4', { key })).status).toBe(200);
      const row = await h.db.kysely.selectFrom('api_keys').select('id').where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
      expect(await revokeApiKey(h.db.kysely, ws.id, row.id, new Date())).toBe(true);
      const r = await call(h.base, 'GET', '/accounts?limit=4', { key });
      expect(r.status).toBe(401);
      expect(r.contentType).toContain('application/problem+json');
      expect(r.headers.get('www-authenticate')).toContain('Bearer');
    });

    it('never answers another workspace with a reused page', async () => {
      const a = await seeded();
      const b = await seeded();
      await importAccounts(h.db, b.ws.id, [{ store_id: 'only-b', score: 50 }], new Date());
      const ra = await call(h.base, 'GET', '/accounts?limit=2', { key: a.key });
      const rb = await call(h.base, 'GET', '/accounts?limit=2', { key: b.key });
      expect(ra.body.data.map((x: any) => x.store_id)).toEqual(['s0', 's1']);
      expect(rb.body.data.map((x: any) => x.store_id)).toEqual(['only-b', 's0']);
    });
  });
}
