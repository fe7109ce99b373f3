/**
 * Workspace records written by two database handles at once (two admin commands, two
 * processes): activations recorded together both stay; of names that differ only in case,
 * created at once, one workspace is made.
 */
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/db/errors.js';
import { addActivation, createWorkspace, findWorkspace } from '../../src/workspaces/store.js';
import { dialects, freshDb, openAgain } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`workspace records raced over two database handles on ${d.label}`, () => {
    it('creates one workspace of names that differ only in case, created at once', async () => {
      const t = await freshDb(d.name);
      const other = await openAgain(t);
      try {
        const names = ['Initech', 'initech', 'INITECH', 'InItEcH'];
        const made = await Promise.allSettled(names.map((n, i) => createWorkspace((i % 2 ? other : t.db).kysely, n, new Date())));
        expect(made.filter((m) => m.status === 'fulfilled')).toHaveLength(1);
        for (const m of made) if (m.status === 'rejected') expect(isUniqueViolation(m.reason), String(m.reason)).toBe(true);
        const winner = (made.find((m) => m.status === 'fulfilled') as PromiseFulfilledResult<{ id: string }>).value;
        for (const n of names) expect((await findWorkspace(other.kysely, n))?.id).toBe(winner.id);
      } finally {
        await other.close();
        await t.cleanup();
      }
    });

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
