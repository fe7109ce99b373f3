/**
 * Watches under concurrent requests split over two api processes, and checks run by two
 * database handles at once: one managed watch per workspace, a watch's cap, a removed watch
 * staying removed (no stores left behind), and each health change emitted once.
 */
import { describe, expect, it } from 'vitest';
import { listEvents } from '../../src/webhooks/outbox.js';
import { addWatchStores, insertWatch } from '../../src/watches/store.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { evaluateWatches } from '../../src/watches/evaluate.js';
import { WATCHES_MAX } from '../../src/watches/types.js';
import { call, freshIdem } from '../helpers/api.js';
import { seedAccounts, seedRun } from '../helpers/accounts.js';
import { type Dialect, freshDb, openAgain } from '../helpers/db.js';
import { burst, expectDeletesWon, type Fleet, seedWorkspace, statuses } from './fixture.js';

const PROBLEM = 'https://storelens.dev/problems/';
const WRITE = ['read:watch', 'write:watch'] as const;

const storeIds = (prefix: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => `${prefix}-${String(from + i).padStart(4, '0')}`);

/** A self-directed watch of the workspace holding `stores`, written straight to the database. */
async function seedWatch(f: Fleet, workspaceId: string, stores: readonly string[]): Promise<string> {
  return f.db.write(async (trx) => {
    const w = await insertWatch(trx, { workspace_id: workspaceId, type: 'self_directed', client_name: null, capacity: null, health: 'healthy', health_reason: 'Not checked yet' }, new Date());
    await addWatchStores(trx, w.id, stores, new Date());
    return w.id;
  });
}

const storesOf = async (f: Fleet, watchId: string) =>
  (await f.db.kysely.selectFrom('watch_stores').select((eb) => eb.fn.countAll<number>().as('n')).where('watch_id', '=', watchId).executeTakeFirstOrThrow()).n;

export function watchRaces(fleet: () => Fleet, d: Dialect): void {
  describe('watches', () => {
    it('starts the managed watch once when every first resize comes at once: all 200, one managed watch', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, WRITE, { keys: 8 });
      const rs = await burst(f, 8, (i) => ({ method: 'PATCH', path: '/watch/managed', key: keys[i]!, body: { capacity: 5 } }));
      expect(statuses(rs)).toEqual({ 200: 8 });
      const rows = await f.db.kysely.selectFrom('watches').select(['id', 'capacity']).where('workspace_id', '=', ws.id).where('type', '=', 'managed').execute();
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.capacity)).toBe(5);
      for (const r of rs) expect(r.body.id).toBe(rows[0]!.id);
    });

    it('cancels the managed watch once when cancels race: all 200, one watch.health_changed to paused', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, WRITE, { keys: 6 });
      expect((await call(f.procs.base(0), 'PATCH', '/watch/managed', { key: keys[0], idem: freshIdem(), body: { capacity: 3 } })).status).toBe(200);
      const rs = await burst(f, 6, (i) => ({ method: 'POST', path: '/watch/managed/cancel', key: keys[i]! }));
      expect(statuses(rs)).toEqual({ 200: 6 });
      const changes = (await listEvents(f.db.kysely, ws.id)).filter((e) => e.type === 'watch.health_changed');
      expect(changes.map((e) => [e.data.from, e.data.to])).toEqual([['healthy', 'paused']]);
    });

    it('keeps a watch within 1000 stores when adds race: one of four adds of 100 to a watch of 900 passes, the rest 422', async () => {
      const f = fleet();
      const all = storeIds('cap', 1300);
      const { ws, keys } = await seedWorkspace(f.db, WRITE, { keys: 4, accounts: all });
      const watch = await seedWatch(f, ws.id, all.slice(0, 900));
      const rs = await burst(f, 4, (i) => ({ method: 'POST', path: `/watches/${watch}/stores`, key: keys[i]!, body: { store_ids: all.slice(900 + i * 100, 1000 + i * 100) } }));
      expect(statuses(rs)).toEqual({ 200: 1, 422: 3 });
      for (const r of rs.filter((x) => x.status === 422)) expect(r.body.type).toBe(`${PROBLEM}unprocessable`);
      expect(await storesOf(f, watch)).toBe(1000);
      expect(rs.find((r) => r.status === 200)!.body.store_count).toBe(1000);
    });

    it(`adds one watch into the last of ${WATCHES_MAX} places when adds race: one 201, the rest 422`, async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, WRITE, { keys: 8 });
      for (let i = 1; i < WATCHES_MAX; i++) await seedWatch(f, ws.id, []);
      const rs = await burst(f, 8, (i) => ({ method: 'POST', path: '/watches', key: keys[i]!, body: { type: 'client', client_name: `racer ${i}` } }));
      expect(statuses(rs)).toEqual({ 201: 1, 422: 7 });
      for (const r of rs.filter((x) => x.status === 422)) expect(r.body.type).toBe(`${PROBLEM}unprocessable`);
      const rows = await f.db.kysely.selectFrom('watches').select('id').where('workspace_id', '=', ws.id).execute();
      expect(rows).toHaveLength(WATCHES_MAX);
    });

    it('removes a watch that adds and store removals race: the delete answers 200, the loser 404, nothing left behind', async () => {
      const f = fleet();
      const all = storeIds('del', 40);
      const { ws, keys } = await seedWorkspace(f.db, WRITE, { keys: 18, accounts: all });
      const watches = await Promise.all(Array.from({ length: 6 }, () => seedWatch(f, ws.id, all.slice(0, 20))));
      // Per watch: its removal, an add of stores and a removal of one of its stores, all at once.
      const rs = await burst(f, 18, (i) => {
        const w = watches[Math.floor(i / 3)]!;
        const key = keys[i]!;
        if (i % 3 === 0) return { method: 'DELETE', path: `/watches/${w}`, key };
        if (i % 3 === 1) return { method: 'POST', path: `/watches/${w}/stores`, key, body: { store_ids: all.slice(20, 40) } };
        return { method: 'DELETE', path: `/watches/${w}/stores/${all[0]}`, key };
      });
      expectDeletesWon(rs);
      const left = await f.db.kysely.selectFrom('watches').select('id').where('id', 'in', watches).execute();
      expect(left).toEqual([]);
      const orphans = await f.db.kysely.selectFrom('watch_stores').select('watch_id').where('watch_id', 'in', watches).execute();
      expect(orphans).toEqual([]);
    });

    it('removes a watch once when removals race: one 200, the rest 404', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, WRITE, { keys: 6, accounts: ['one'] });
      const watch = await seedWatch(f, ws.id, ['one']);
      const rs = await burst(f, 6, (i) => ({ method: 'DELETE', path: `/watches/${watch}`, key: keys[i]! }));
      expect(statuses(rs)).toEqual({ 200: 1, 404: 5 });
      expect(await storesOf(f, watch)).toBe(0);
    });
  });

  describe('watch checks raced over two database handles', () => {
    it('emits each watch.health_changed and records each finding once when two checks of the same ingest run at once', async () => {
      const t = await freshDb(d.name);
      const other = await openAgain(t);
      try {
        const now = new Date('2026-03-10T09:00:00Z');
        const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
        const ws = await createWorkspace(t.db.kysely, 'checks', now);
        await seedAccounts(t.db, ws.id, [{ store_id: 'a', score: 0.9 }, { store_id: 'b', score: 0.8 }]);
        // Twelve watches of store "a", which the month's run does not have: each becomes failing.
        const watches = await t.db.write(async (trx) => {
          const ids: string[] = [];
          for (let i = 0; i < 12; i++) {
            const w = await insertWatch(trx, { workspace_id: ws.id, type: 'self_directed', client_name: null, capacity: null, health: 'healthy', health_reason: 'Not checked yet' }, now);
            await addWatchStores(trx, w.id, ['a'], now);
            ids.push(w.id);
          }
          return ids;
        });
        await seedRun(t.db, '2026-02', 'run-feb', [{ store_id: 'b', monthly_visits: 5_000 }], []);
        const [one, two] = await Promise.all([evaluateWatches(t.db, now), evaluateWatches(other, now)]);
        expect(one.checked + two.checked).toBe(12);
        expect(one.changed + two.changed).toBe(12);
        const changes = (await listEvents(t.db.kysely, ws.id)).filter((e) => e.type === 'watch.health_changed');
        expect(changes.map((e) => e.data.watch_id).sort()).toEqual([...watches].sort());
        for (const e of changes) expect([e.data.from, e.data.to]).toEqual(['healthy', 'failing']);
        const receipts = await t.db.kysely.selectFrom('watch_receipts').select('watch_id').where('watch_id', 'in', watches).execute();
        expect(receipts).toHaveLength(12);
        const recorded = await t.db.kysely.selectFrom('watch_events').select('watch_id').where('kind', '=', 'health_changed').where('watch_id', 'in', watches).execute();
        expect(recorded).toHaveLength(12);
        // Each watch's finding is recorded once, and holds.
        const absent = await t.db.kysely.selectFrom('watch_events').select(['watch_id', 'ended_at']).where('kind', '=', 'store_absent').where('watch_id', 'in', watches).execute();
        expect(absent.map((e) => e.watch_id).sort()).toEqual([...watches].sort());
        expect(absent.every((e) => e.ended_at === null)).toBe(true);

        // A corrected run has "a" after all, then a later one drops it again: checked by both
        // handles at once each time, every watch's finding ends once and is told again once.
        const absentOf = async () =>
          (await t.db.kysely.selectFrom('watch_events').select(['watch_id', 'ended_at']).where('kind', '=', 'store_absent').where('watch_id', 'in', watches).execute()).map((e) => [e.watch_id, e.ended_at === null]);
        await seedRun(t.db, '2026-02', 'run-feb-2', [{ store_id: 'a', monthly_visits: 5_000 }, { store_id: 'b', monthly_visits: 5_000 }], []);
        const ended = await Promise.all([evaluateWatches(t.db, later(1)), evaluateWatches(other, later(1))]);
        expect(ended[0].checked + ended[1].checked).toBe(12);
        expect((await absentOf()).sort()).toEqual(watches.map((w) => [w, false]).sort());
        await seedRun(t.db, '2026-02', 'run-feb-3', [{ store_id: 'b', monthly_visits: 5_000 }], []);
        const again = await Promise.all([evaluateWatches(t.db, later(2)), evaluateWatches(other, later(2))]);
        expect(again[0].checked + again[1].checked).toBe(12);
        expect((await absentOf()).sort()).toEqual(watches.flatMap((w) => [[w, false], [w, true]]).sort());
      } finally {
        await other.close();
        await t.cleanup();
      }
    });
  });
}
