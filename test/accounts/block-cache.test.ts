/**
 * Pages of a ranking version read through the per-process cache of decoded blocks
 * (accounts/block-cache.ts) are the pages read from the database, and a version deleted (or
 * being deleted) is not served from it.
 */
import { describe, expect, it } from 'vitest';
import { BLOCK_ROWS } from '../../src/accounts/blocks.js';
import { pageRanking } from '../../src/accounts/ranking-reads.js';
import { importAccounts } from '../../src/accounts/store.js';
import { workspace } from '../helpers/api.js';
import { dialects, useFreshDb } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`pages of a ranking version, its blocks kept decoded, on ${d.label}`, () => {
    const db = useFreshDb(d.name);

    const n = 2 * BLOCK_ROWS + 100;
    const accounts = (shift: number) =>
      Array.from({ length: n }, (_, i) => ({ store_id: `store-${String(i).padStart(5, '0')}`, score: 0.9 - ((i + shift) % n) / (3 * n), in_market: i % 3 === 0, explore: false, model_version: shift }));
    const version = async (wsId: string) => (await db().kysely.selectFrom('workspaces').select('ranking_version').where('id', '=', wsId).executeTakeFirstOrThrow()).ranking_version;
    const walk = (wsId: string, v: number, afterPos?: number, inMarketOnly = false) => pageRanking(db().kysely, wsId, v, { inMarketOnly, limit: 60, afterPos });

    it('answers every page the same read again (from the cache) as read first, across versions', async () => {
      const ws = await workspace(db());
      await importAccounts(db(), ws.id, accounts(0), new Date());
      const v1 = await version(ws.id);
      const starts = [undefined, 10, BLOCK_ROWS - 5, BLOCK_ROWS, 2 * BLOCK_ROWS + 50, n - 1];
      const first = [];
      for (const s of starts) first.push(await walk(ws.id, v1, s), await walk(ws.id, v1, s, true));
      const all = await pageRanking(db().kysely, ws.id, v1, { inMarketOnly: false, limit: n + 1 });
      expect(all.map((r) => r.store_id)).toEqual(accounts(0).map((a) => a.store_id));
      await importAccounts(db(), ws.id, accounts(7), new Date());
      const v2 = await version(ws.id);
      expect(v2).not.toBe(v1);
      const again = [];
      for (const s of starts) again.push(await walk(ws.id, v1, s), await walk(ws.id, v1, s, true));
      expect(again).toEqual(first);
      expect((await walk(ws.id, v2)).map((r) => r.store_id)).not.toEqual(first[0].map((r) => r.store_id));
      expect((await walk(ws.id, v2)).every((r) => Number(r.model_version) === 7)).toBe(true);
    });

    it('reads a version again when its head is not the one the process remembers (a database restored under it)', async () => {
      const ws = await workspace(db());
      await importAccounts(db(), ws.id, accounts(0), new Date());
      const v1 = await version(ws.id);
      const first = await walk(ws.id, v1);
      // The same version number, written again with its first block's rows in the other order.
      const block = await db().kysely.selectFrom('ranking_blocks').select('store_ids').where('workspace_id', '=', ws.id).where('version', '=', v1).where('block', '=', 0).executeTakeFirstOrThrow();
      const reversed = (JSON.parse(block.store_ids) as string[]).reverse();
      await db().write(async (trx) => {
        await trx.updateTable('ranking_blocks').set({ store_ids: JSON.stringify(reversed) }).where('workspace_id', '=', ws.id).where('version', '=', v1).where('block', '=', 0).execute();
        await trx.updateTable('ranking_versions').set({ created_at: '2001-01-01T00:00:00.000Z' }).where('workspace_id', '=', ws.id).where('version', '=', v1).execute();
      });
      const again = await walk(ws.id, v1);
      expect(again.map((r) => r.store_id)).toEqual(reversed.slice(0, 60));
      expect(again.map((r) => r.store_id)).not.toEqual(first.map((r) => r.store_id));
      expect(again.every((r) => r.updated_at === '2001-01-01T00:00:00.000Z')).toBe(true);
      // And read the same way from then on, its new head remembered.
      expect(await walk(ws.id, v1)).toEqual(again);
    });

    it('serves nothing of a version being deleted or deleted, whose blocks were kept', async () => {
      const ws = await workspace(db());
      await importAccounts(db(), ws.id, accounts(0), new Date());
      const v1 = await version(ws.id);
      await importAccounts(db(), ws.id, accounts(3), new Date());
      expect((await walk(ws.id, v1)).length).toBe(60);
      // As deleteVersion (accounts/rankings.ts) goes: marked, its blocks deleted, then its row.
      await db().write((trx) => trx.updateTable('ranking_versions').set({ state: 'deleting' }).where('workspace_id', '=', ws.id).where('version', '=', v1).execute());
      await db().write((trx) => trx.deleteFrom('ranking_blocks').where('workspace_id', '=', ws.id).where('version', '=', v1).execute());
      expect(await walk(ws.id, v1)).toEqual([]);
      await db().write((trx) => trx.deleteFrom('ranking_versions').where('workspace_id', '=', ws.id).where('version', '=', v1).execute());
      expect(await walk(ws.id, v1)).toEqual([]);
    });
  });
}
