/**
 * Workspace records written by two database handles at once (two admin commands, two
 * processes): activations recorded together both stay.
 */
import { describe, expect, it } from 'vitest';
import { addActivation, createWorkspace, findWorkspace } from '../../src/workspaces/store.js';
import { dialects, freshDb, openAgain } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`workspace records raced over two database handles on ${d.label}`, () => {
    it('keeps every activation when activations are recorded at once', async () => {
      const t = await freshDb(d.name);
      const other = await openAgain(t);
      try {
        const ws = await createWorkspace(t.db.kysely, 'activations', new Date());
        const names = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
        await Promise.all(names.map((n, i) => (i % 2 ? other : t.db).write((trx) => addActivation(trx, ws.id, n))));
        expect(JSON.parse((await findWorkspace(t.db.kysely, ws.id))!.activations)).toEqual(names);
      } finally {
        await other.close();
        await t.cleanup();
      }
    });
  });
}
