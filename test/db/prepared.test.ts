import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { findKeyByHash, insertApiKey } from '../../src/api/keys-store.js';
import { prepared, preparedTuples } from '../../src/db/prepared.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';

// Hot statements run through one helper, inside a write and outside any; either way a reader
// sees only committed rows, never the half-done work of a write in progress.
for (const d of dialects) {
  describe.skipIf(d.skip)(`hot statements on ${d.label}`, () => {
    let t: TestDb;
    let wsId: string;
    beforeAll(async () => {
      t = await freshDb(d.name);
      wsId = (await createWorkspace(t.db.kysely, 'hot', new Date())).id;
    });
    afterAll(async () => t?.cleanup());

    const key = (n: string) => ({
      id: `key_${n}`, workspace_id: wsId, name: n, prefix: `slk_${n}`, hash: `hash-${n}`,
      scopes: ['read:accounts'], created_by: 'owner@example.com', created_at: new Date().toISOString(),
    });

    it('finds a key inside the write that adds it, and outside once committed', async () => {
      const inside = await t.db.write(async (trx) => {
        await insertApiKey(trx, key('a'));
        return findKeyByHash(trx, 'hash-a');
      });
      expect(inside?.key.id).toBe('key_a');
      const outside = await findKeyByHash(t.db.kysely, 'hash-a');
      expect(outside).toMatchObject({ key: { id: 'key_a', scopes: ['read:accounts'] }, workspace: { id: wsId, name: 'hot' } });
    });

    it('never shows a reader the rows of a write still in progress, nor of one rolled back', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let inserted!: () => void;
      const started = new Promise<void>((r) => (inserted = r));
      const write = t.db.write(async (trx) => {
        await insertApiKey(trx, key('b'));
        inserted();
        await gate;
        throw new Error('rolled back');
      });
      await started;
      const read = findKeyByHash(t.db.kysely, 'hash-b');
      release();
      await expect(write).rejects.toThrow('rolled back');
      expect(await read).toBeUndefined();
      expect(await findKeyByHash(t.db.kysely, 'hash-b')).toBeUndefined();
    });

    it('reads rows as arrays of their columns in the SELECT\'s order, and the same statement as objects after', async () => {
      const q = () => sql`select id, name, workspace_id from api_keys where workspace_id = ${wsId} order by id`;
      expect(await preparedTuples(t.db.kysely, q())).toEqual([['key_a', 'a', wsId]]);
      expect(await t.db.write((trx) => preparedTuples(trx, q()))).toEqual([['key_a', 'a', wsId]]);
      expect(await prepared(t.db.kysely, q())).toEqual([{ id: 'key_a', name: 'a', workspace_id: wsId }]);
    });

    it('reads columns of the same name as columns of their own (PostgreSQL hands the rows over as arrays)', async () => {
      const q = () => sql`select name as v, workspace_id as v from api_keys where workspace_id = ${wsId} order by id`;
      expect(await preparedTuples(t.db.kysely, q())).toEqual([['a', wsId]]);
      expect(await t.db.write((trx) => preparedTuples(trx, q()))).toEqual([['a', wsId]]);
    });
  });
}
