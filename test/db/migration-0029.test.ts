/**
 * Migration 0029_ranking_blocks over versions written before it: each version's rows (rankings, a
 * row per account) move into its blocks (accounts/blocks.ts), so every kept version reads as it
 * did — each position's store, score, logit, logit sd (null kept null), marks and model version —
 * and knows its in-market count; rankings is dropped.
 */
import { describe, expect, it } from 'vitest';
import { BLOCK_ROWS, type BlockColumns, decodeBlock } from '../../src/accounts/blocks.js';
import { databaseBeforeMigration } from '../helpers/db.js';

const { db, before, after } = databaseBeforeMigration('0029');

const row = (version: number, pos: number) => ({
  workspace_id: 'ws_1',
  version,
  pos,
  store_id: `store-${version}-${String(pos).padStart(5, '0')}`,
  score: 1 / (pos + version),
  logit: Math.log(1 / (pos + version - 1)),
  logit_sd: pos % 5 === 0 ? null : pos / 1000,
  in_market: pos % 3 === 0 ? 1 : 0,
  explore: pos % 9 === 0 ? 1 : 0,
  model_version: version === 2 ? 0 : 4,
});

describe('migration 0029 over versions written before it', () => {
  it('keeps every row of every version at its position, in its blocks, and drops rankings', async () => {
    await before();
    await db.insertInto('workspaces').values({ id: 'ws_1', name: 'w', created_at: '2026-01-01T00:00:00.000Z' }).execute();
    const sizes = { 2: 2 * BLOCK_ROWS + 17, 3: BLOCK_ROWS };
    for (const [version, state] of [[2, 'superseded'], [3, 'current']] as const) {
      const n = sizes[version];
      await db.insertInto('ranking_versions').values({ workspace_id: 'ws_1', version, gen: 1, state, rows: n, created_at: '2026-01-01T00:00:00.000Z', created_ms: 0 }).execute();
      for (let i = 1; i <= n; i += 100) await db.insertInto('rankings').values(Array.from({ length: Math.min(100, n - i + 1) }, (_, j) => row(version, i + j))).execute();
    }

    expect(await after()).toContain('0029_ranking_blocks');

    for (const version of [2, 3] as const) {
      const blocks = await db.selectFrom('ranking_blocks').selectAll().where('workspace_id', '=', 'ws_1').where('version', '=', version).orderBy('block').execute();
      expect(blocks.map((b) => Number(b.block))).toEqual(Array.from({ length: Math.ceil(sizes[version] / BLOCK_ROWS) }, (_, b) => b));
      const read = blocks.flatMap((b) => {
        const d = decodeBlock(b as unknown as BlockColumns);
        return d.storeIds.map((store_id, j) => ({
          workspace_id: 'ws_1',
          version,
          pos: Number(b.block) * BLOCK_ROWS + j + 1,
          store_id,
          score: d.score[j],
          logit: d.logit[j],
          logit_sd: Number.isNaN(d.logitSd[j]) ? null : d.logitSd[j],
          in_market: d.flags[j] & 1,
          explore: (d.flags[j] & 2) >> 1,
          model_version: d.modelVersion[j],
        }));
      });
      expect(read).toEqual(Array.from({ length: sizes[version] }, (_, i) => row(version, i + 1)));
      const v = await db.selectFrom('ranking_versions').select('in_market').where('workspace_id', '=', 'ws_1').where('version', '=', version).executeTakeFirstOrThrow();
      expect(Number(v.in_market)).toBe(read.filter((r) => r.in_market === 1).length);
    }
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).not.toContain('rankings');
  });
});
