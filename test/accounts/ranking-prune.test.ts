import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAccounts } from '../../src/accounts/store.js';
import { currentRows } from '../../src/accounts/ranking-reads.js';
import type { Db } from '../../src/compose/database.js';
import { workspace } from '../helpers/api.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';

// More accounts than one part of a ranking's write or delete (4,000), so the parts meet.
const N = 9_001;
const id = (i: number) => `store-${String(i).padStart(5, '0')}`;

for (const d of dialects) {
  describe.skipIf(d.skip)(`pruning superseded rankings on ${d.label}`, () => {
    let t: TestDb;
    let db: Db;
    beforeAll(async () => {
      t = await freshDb(d.name);
      db = t.db;
    });
    afterAll(async () => t?.cleanup());

    const rowsOf = async (wsId: string, version: number) => {
      // The rows its blocks hold (accounts/blocks.ts: a store id each).
      const blocks = await db.kysely.selectFrom('ranking_blocks').select('store_ids').where('workspace_id', '=', wsId).where('version', '=', version).execute();
      const rankings = blocks.reduce((n, b) => n + (JSON.parse(b.store_ids) as string[]).length, 0);
      // The stores the version's position buckets hold (accounts/positions.ts: an entry each, each starting with US).
      const buckets = await db.kysely.selectFrom('ranking_position_buckets').select('entries').where('workspace_id', '=', wsId).where('version', '=', version).execute();
      return { rankings, positions: buckets.reduce((n, b) => n + b.entries.split('\x1f').length - 1, 0) };
    };

    it('deletes every row of a ranking superseded over an hour ago, and nothing of the kept ones', async () => {
      const ws = await workspace(db);
      const t0 = Date.now();
      await importAccounts(db, ws.id, Array.from({ length: N }, (_, i) => ({ store_id: id(i), score: ((i % 997) / 997) * 0.9 })), new Date(t0));
      const versions = async () => (await db.kysely.selectFrom('ranking_versions').select(['version', 'state']).where('workspace_id', '=', ws.id).orderBy('version').execute()).map((v) => ({ ...v, version: Number(v.version) }));
      const [first] = await versions();
      await importAccounts(db, ws.id, [{ store_id: id(1), score: 0.99 }], new Date(t0));
      const [, second] = await versions();
      expect(await rowsOf(ws.id, first.version)).toEqual({ rankings: N, positions: N });
      await importAccounts(db, ws.id, [{ store_id: id(2), score: 0.98 }], new Date(t0 + 61 * 60_000));
      expect((await versions()).map((v) => v.version)).not.toContain(first.version);
      expect(await rowsOf(ws.id, first.version)).toEqual({ rankings: 0, positions: 0 });
      expect(await rowsOf(ws.id, second.version)).toEqual({ rankings: N, positions: N });
      const rows = await currentRows(db.kysely, ws.id);
      expect(rows).toHaveLength(N);
      expect(rows.slice(0, 2).map((r) => r.store_id)).toEqual([id(1), id(2)]);
    });
  });
}
