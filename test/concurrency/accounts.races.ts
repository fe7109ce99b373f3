/**
 * Account statuses and outcomes under concurrent requests split over two api processes: every
 * status decision is in the history, the account's status is the newest entry of it, and one
 * Idempotency-Key records one outcome.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api.js';
import { burst, type Fleet, seedWorkspace, statuses } from './fixture.js';

const DECISIONS = ['working', 'qualified', 'disqualified', 'customer', 'do_not_contact', 'open', 'working', 'qualified'];

export function accountRaces(fleet: () => Fleet): void {
  describe('account statuses and outcomes', () => {
    it("records every one of eight racing decisions, the newest in the history being the account's status", async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['read:accounts', 'write:deals'], { keys: 8, accounts: ['store-a'] });
      const rs = await burst(f, 8, (i) => ({ method: 'POST', path: '/accounts/store-a/status', key: keys[i]!, body: { status: DECISIONS[i], note: `decision ${i}` } }));
      expect(statuses(rs)).toEqual({ 200: 8 });
      const history = await f.db.kysely
        .selectFrom('account_statuses')
        .select(['status', 'note', 'created_at'])
        .where('workspace_id', '=', ws.id)
        .where('store_id', '=', 'store-a')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      expect(history.map((h) => h.note).sort()).toEqual(DECISIONS.map((_, i) => `decision ${i}`).sort());
      expect(new Set(history.map((h) => h.created_at)).size).toBe(8);
      const account = await f.db.kysely.selectFrom('accounts').select('status').where('workspace_id', '=', ws.id).where('store_id', '=', 'store-a').executeTakeFirstOrThrow();
      expect(account.status).toBe(history[0]!.status);
    });

    it('records one outcome when six requests with one Idempotency-Key race: the rest replay it or are told it is in progress', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['write:outcomes'], { keys: 1, accounts: ['store-a'] });
      const body = { store_id: 'store-a', action: 'won', value: 1200 };
      const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => call(f.procs.base(i), 'POST', '/outcomes', { key: keys[0], idem: 'outcome-once', body })));
      for (const r of rs) expect([200, 409]).toContain(r.status);
      const rows = await f.db.kysely.selectFrom('outcomes').select('id').where('workspace_id', '=', ws.id).execute();
      expect(rows).toHaveLength(1);
      for (const r of rs.filter((x) => x.status === 200)) expect(r.body.id).toBe(rows[0]!.id);
    });
  });
}
