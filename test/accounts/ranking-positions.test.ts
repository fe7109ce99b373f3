/**
 * A store's place in the current ranking is found in the version's position buckets
 * (accounts/positions.ts): whatever its id holds (the buckets' own separators, characters beyond
 * the BMP, another id as its suffix), the account, its visibility and the ranked row an outcome
 * keeps are the store's own, and a store the ranking does not hold is not found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountVisible, getAccount, importAccounts } from '../../src/accounts/store.js';
import { visibleStoreIds } from '../../src/accounts/ranking-reads.js';
import { insertOutcome, outcomeInsert } from '../../src/accounts/outcomes-store.js';
import { bucketOf, needleOf, positionBuckets, positionIn } from '../../src/accounts/positions.js';
import type { Db } from '../../src/compose/database.js';
import { workspace } from '../helpers/api.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { CompiledQuery, sql } from 'kysely';

const ODD = ['b', 'ab', 'a\x1fb', 'a\x1eb\x1d', '\x1d0', 'é-store', '😀-store', 'x'.repeat(300)];

describe('position buckets', () => {
  it('find each store, and no other, whatever its id holds', () => {
    const ids = [...ODD, ...Array.from({ length: 5_000 }, (_, i) => `s${i}`)].sort();
    const pos = Int32Array.from(ids, (_, k) => ids.length - k);
    const buckets = new Map(positionBuckets(ids, pos).map((b) => [b.bucket, b.entries]));
    ids.forEach((id, k) => expect(positionIn(buckets.get(bucketOf(id))!, id)).toBe(pos[k]));
    for (const other of ['a', 'a\x1f', 'b\x1d', '\x1d', 's', 's50000', '😀']) expect(positionIn(buckets.get(bucketOf(other)) ?? '', other)).toBeUndefined();
    expect(needleOf('a\x1fb')).not.toBe(needleOf('a\x1eb'));
  });

  it('hold the same entries for ASCII ids (written into kept bytes) as joined one by one, version after version of the same ids', () => {
    const ids = [...ODD.filter((id) => !/[^\x00-\x7f]/.test(id)), ...Array.from({ length: 20_000 }, (_, i) => `s${i}`)].sort();
    const joined = (pos: Int32Array) => {
      const by = new Map<number, string>();
      ids.forEach((id, k) => by.set(bucketOf(id), (by.get(bucketOf(id)) ?? '') + needleOf(id) + String(pos[k]).padStart(10, '0')));
      return by;
    };
    for (const pos of [Int32Array.from(ids, (_, k) => ids.length - k), Int32Array.from(ids, (_, k) => k + 1), Int32Array.from(ids, (_, k) => ((k * 7919) % ids.length) + 1)]) {
      const buckets = positionBuckets(ids, pos);
      expect(new Map(buckets.map((b) => [b.bucket, b.entries]))).toEqual(joined(pos));
      // Each bucket's stores in the order of their ids, as the joined text had them.
      const byBucket = new Map(buckets.map((b) => [b.bucket, b.entries]));
      ids.forEach((id, k) => expect(positionIn(byBucket.get(bucketOf(id))!, id)).toBe(pos[k]));
    }
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`a store's place in the current ranking on ${d.label}`, () => {
    let t: TestDb;
    let db: Db;
    beforeAll(async () => {
      t = await freshDb(d.name);
      db = t.db;
    });
    afterAll(async () => t?.cleanup());

    it('is found in SQL for every store, and not for a store the ranking does not hold', async () => {
      const ws = await workspace(db);
      const accounts = [...ODD, ...Array.from({ length: 2_000 }, (_, i) => `store-${i}`)].map((store_id, i) => ({ store_id, score: 1 - i / 10_000 }));
      await importAccounts(db, ws.id, accounts, new Date());
      for (const a of accounts.slice(0, ODD.length + 3)) {
        expect(await accountVisible(db.kysely, ws.id, a.store_id)).toBe(true);
        const row = await getAccount(db.kysely, ws.id, a.store_id);
        expect(row?.store_id).toBe(a.store_id);
        expect(row?.score).toBeCloseTo(a.score, 12);
      }
      for (const missing of ['a', 'a\x1f', '\x1d', 'store-', 'store-20000', '😀']) {
        expect(await accountVisible(db.kysely, ws.id, missing)).toBe(false);
        expect(await getAccount(db.kysely, ws.id, missing)).toBeUndefined();
      }
      const asked = [...ODD, 'a', 'store-5', 'store-99999'];
      expect([...(await visibleStoreIds(db.kysely, ws.id, asked))].sort()).toEqual([...ODD, 'store-5'].sort());
      for (const [store_id, ranked] of [['a\x1fb', true], ['nowhere', false]] as const) {
        await db.write((trx) =>
          insertOutcome(trx, {
            id: `out-${store_id}`, workspace_id: ws.id, api_key_id: 'k', store_id, action: 'won', value: null,
            occurred_at: null, note: null, lost_reason: null, lost_reason_other: null, recorded_at: new Date().toISOString(),
          }),
        );
        const o = await db.kysely.selectFrom('outcomes').select(['ranked_score', 'ranked_version']).where('id', '=', `out-${store_id}`).executeTakeFirstOrThrow();
        expect(o.ranked_score === null ? null : Number(o.ranked_score)).toBe(ranked ? accounts[2].score : null);
        expect(o.ranked_version === null).toBe(!ranked);
      }
    });

    it.skipIf(d.name !== 'PostgreSQL')('is read by the whole of its block\'s key when an outcome is recorded, on tables never analysed', async () => {
      const ws = await workspace(db);
      await importAccounts(db, ws.id, Array.from({ length: 500 }, (_, i) => ({ store_id: `s-${i}`, score: 1 - i / 1_000 })), new Date());
      const c = sql`${outcomeInsert(
        { id: 'out-plan', workspace_id: ws.id, api_key_id: 'k', store_id: 's-400', action: 'won', value: null, occurred_at: null, note: null, lost_reason: null, lost_reason_other: null, recorded_at: new Date().toISOString() },
        undefined,
      )}`.compile(db.kysely);
      const [{ 'QUERY PLAN': plan }] = (await db.kysely.executeQuery(CompiledQuery.raw(`explain (format json) ${c.sql}`, [...c.parameters]))).rows as { 'QUERY PLAN': unknown }[];
      const nodes: Record<string, unknown>[] = [];
      const walk = (n: Record<string, unknown>) => {
        nodes.push(n);
        for (const k of (n.Plans as Record<string, unknown>[] | undefined) ?? []) walk(k);
      };
      walk((plan as { Plan: Record<string, unknown> }[])[0]!.Plan);
      const blocks = nodes.filter((n) => n['Relation Name'] === 'ranking_blocks');
      expect(blocks).toHaveLength(1);
      // By its whole key, in the index or as the scan's filter (a never-analysed table of a few rows is read whole), the position computed once, first.
      expect(String(blocks[0]!['Index Cond'] ?? blocks[0]!.Filter)).toMatch(/workspace_id = .*version = \$\d+.*block = \(\(\$\d+ - 1\) \/ 256\)/);
      for (const n of nodes) expect(JSON.stringify([n['Join Filter'], n.Filter])).not.toMatch(/strpos/);
    });
  });
}
