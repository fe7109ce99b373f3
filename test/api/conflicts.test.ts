/**
 * A rule the database enforces, broken by a concurrent request, answers 409 conflict naming the
 * rule, never 500: the errors are the drivers' own, raised by real statements on each dialect.
 */
import { describe, expect, it } from 'vitest';
import { toProblem } from '../../src/api/error-handler.js';
import { dialects, useFreshDb } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`constraint violations on ${d.label}`, () => {
    const db = useFreshDb(d.name);

    const violation = async (write: () => Promise<unknown>) => {
      try {
        await write();
      } catch (e) {
        return e;
      }
      throw new Error('the statement succeeded');
    };

    it('answers a unique violation with 409 conflict naming the constraint', async () => {
      const row = { id: 'w1', name: 'same', created_at: '2026-01-01T00:00:00.000Z' };
      await db().kysely.insertInto('workspaces').values(row).execute();
      const e = await violation(() => db().write((trx) => trx.insertInto('workspaces').values({ ...row, id: 'w2' }).execute()));
      const p = toProblem(e, 1000);
      expect(p.status).toBe(409);
      expect(p.kind).toBe('conflict');
      expect(p.extensions.constraint).toMatch(/workspaces.*name/);
      expect(p.detail).toContain(String(p.extensions.constraint));
    });

    it('answers a reference to a row deleted meanwhile with 409 conflict', async () => {
      const e = await violation(() => db().write((trx) => trx.insertInto('members').values({ workspace_id: 'gone', email: 'a@example.com', role: 'member', created_at: '2026-01-01T00:00:00.000Z' }).execute()));
      const p = toProblem(e, 1000);
      expect(p.status).toBe(409);
      expect(p.body()).toMatchObject({ type: 'https://storelens.dev/problems/conflict', status: 409 });
    });
  });
}
