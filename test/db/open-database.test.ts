import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { openDatabase } from '../../src/db/index.js';
import { createWorkspace } from '../../src/db/workspaces.js';
import { countAccounts, upsertAccounts } from '../../src/db/accounts.js';
import { hitRateCounter } from '../../src/db/rate-counters.js';
import { claimIdempotencyKey, completeIdempotencyKey } from '../../src/db/idempotency.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`database on ${d.label}`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await freshDb(d.name);
    });
    afterAll(async () => t?.cleanup());

    it('runs the migrations once and is current on the next open', async () => {
      expect(t.db.appliedMigrations).toEqual(['0001_api_platform', '0002_ranking_history']);
      const again = await openDatabase({ dbPath: t.dbPath, databaseUrl: t.databaseUrl });
      expect(again.appliedMigrations).toEqual([]);
      await again.close();
    });

    it('returns counts as numbers, not strings', async () => {
      const ws = await createWorkspace(t.db, 'counts', new Date());
      await upsertAccounts(t.db, ws.id, [{ store_id: 'a', score: 1 }, { store_id: 'b', score: 2 }], new Date());
      expect(await countAccounts(t.db, ws.id)).toBe(2);
      const big = await t.db.kysely.selectNoFrom(sql<number>`cast(9007199254740 as bigint)`.as('n')).executeTakeFirstOrThrow();
      expect(big.n).toBe(9007199254740);
    });

    it('counts rate-limit hits atomically', async () => {
      const counts = await Promise.all(Array.from({ length: 25 }, () => hitRateCounter(t.db, 'k1', 'read', 60_000)));
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    });

    it('bumps the ranking version only when an existing score changes', async () => {
      const ws = await createWorkspace(t.db, 'rerank', new Date());
      const r1 = await upsertAccounts(t.db, ws.id, [{ store_id: 'a', score: 1 }], new Date());
      const r2 = await upsertAccounts(t.db, ws.id, [{ store_id: 'b', score: 3 }, { store_id: 'a', score: 1 }], new Date());
      const r3 = await upsertAccounts(t.db, ws.id, [{ store_id: 'a', score: 5 }], new Date());
      expect([r1.reranked, r2.reranked, r3.reranked]).toEqual([false, false, true]);
    });

    it('lets one claim of an idempotency key win and takes over expired ones', async () => {
      const first = await t.db.write((trx) => claimIdempotencyKey(trx, 'ws', 'k', 'f1', 1000, 500));
      expect(first.claimed).toBe(true);
      await t.db.write((trx) => completeIdempotencyKey(trx, 'ws', 'k', 200, '{}'));
      const second = await t.db.write((trx) => claimIdempotencyKey(trx, 'ws', 'k', 'f2', 1200, 500));
      expect(second).toMatchObject({ claimed: false, existing: { fingerprint: 'f1', status: 200 } });
      const later = await t.db.write((trx) => claimIdempotencyKey(trx, 'ws', 'k', 'f2', 1600, 500));
      expect(later.claimed).toBe(true);
    });
  });
}
