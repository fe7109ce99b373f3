/**
 * Migration 0028_ranking_position_buckets over versions written before it: each version's
 * positions (ranking_positions, a row per store) move into its position buckets
 * (accounts/positions.ts), so a store of any kept version is found where it was, and a store
 * the version did not hold is not.
 */
import { describe, expect, it } from 'vitest';
import { bucketOf, positionIn } from '../../src/accounts/positions.js';
import { databaseBeforeMigration } from '../helpers/db.js';

const { db, before, after } = databaseBeforeMigration('0028');

describe('migration 0028 over versions written before it', () => {
  it('keeps every store of every version at its position, in the buckets, and drops ranking_positions', async () => {
    await before();
    await db.insertInto('workspaces').values({ id: 'ws_1', name: 'w', created_at: '2026-01-01T00:00:00.000Z' }).execute();
    const stores = (version: number) => Array.from({ length: 3_000 + version }, (_, i) => `store-${version}-${String(i).padStart(5, '0')}`);
    for (const [version, state] of [[2, 'superseded'], [3, 'current']] as const) {
      await db.insertInto('ranking_versions').values({ workspace_id: 'ws_1', version, gen: 1, state, rows: stores(version).length, created_at: '2026-01-01T00:00:00.000Z', created_ms: 0 }).execute();
      const ids = stores(version);
      for (let i = 0; i < ids.length; i += 200) {
        await db
          .insertInto('ranking_positions')
          .values(ids.slice(i, i + 200).map((store_id, j) => ({ workspace_id: 'ws_1', version, store_id, pos: ids.length - (i + j) })))
          .execute();
      }
    }

    expect(await after()).toContain('0028_ranking_position_buckets');

    for (const version of [2, 3]) {
      const buckets = new Map(
        (await db.selectFrom('ranking_position_buckets').select(['bucket', 'entries']).where('workspace_id', '=', 'ws_1').where('version', '=', version).execute()).map((b) => [
          Number(b.bucket),
          b.entries as string,
        ]),
      );
      const ids = stores(version);
      ids.forEach((id, i) => expect(positionIn(buckets.get(bucketOf(id))!, id)).toBe(ids.length - i));
      expect(positionIn(buckets.get(bucketOf('store-9-00000')) ?? '', 'store-9-00000')).toBeUndefined();
    }
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).not.toContain('ranking_positions');
  });
});
