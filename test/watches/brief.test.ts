/**
 * The brief over a real socket tells what the latest check found, and only that: a finding that
 * stopped holding within the month it was recorded for (capacity raised, data no longer stale, a
 * signal a later run of the month withdrew) leaves the brief, and the events list keeps it with
 * the time it ended; one that holds again is recorded again, one that stays ended is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateWatches } from '../../src/watches/evaluate.js';
import { seedAccounts, seedRun, steadyStore } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';
import { WORKING } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const OPS = ['get_managed_watch', 'resize_managed_watch', 'add_watch', 'get_watch', 'list_watch_events', 'get_watch_brief'] as const;

const store = steadyStore;

interface Change {
  kind: string;
  detail: string;
}
interface Event {
  id: string;
  month: string;
  kind: string;
  detail: string;
  created_at: string;
  ended_at: string | null;
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`the brief on ${d.label}`, () => {
    let h: Harness;
    let key: string;

    const brief = async (id: string) => (await call(h.base, 'GET', `/watches/${id}/brief`, { key })).body as { month: string; health: string; summary: string; changes: Change[] };
    const markdown = async (id: string) => (await call(h.base, 'GET', `/watches/${id}/brief?format=markdown`, { key })).body as string;
    const events = async (id: string, kind: string) =>
      ((await call(h.base, 'GET', `/watches/${id}/events?limit=200`, { key })).body.data as Event[]).filter((e) => e.kind === kind).sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
    const resize = async (capacity: number) => {
      const r = await call(h.base, 'PATCH', '/watch/managed', { key, idem: freshIdem(), body: { capacity } });
      expect(r.status).toBe(200);
      return r.body.id as string;
    };
    /** The worker's watch check at the clock's time, then a minute passes. */
    const check = async () => {
      const s = await evaluateWatches(h.db, h.clock.now());
      h.clock.advance(60_000);
      return s;
    };

    beforeAll(async () => {
      h = await startApi(d.name, { operations: { ...WORKING, ...Object.fromEntries(OPS.map((op) => [op, 'available'])) } });
      h.clock.set('2026-03-05T10:00:00.000Z');
      const ws = await workspace(h.db);
      key = await apiKey(h.db, ws.id, ['read:watch', 'write:watch']);
      await seedAccounts(h.db, ws.id, ['a', 'b', 'c', 'd'].map((s, k) => ({ store_id: s, score: 0.9 - k * 0.1, in_market: k < 3 })));
      await seedRun(h.db, '2026-01', 'run-jan', ['a', 'b', 'c', 'd'].map((s) => store(s)), []);
      await seedRun(h.db, '2026-02', 'run-feb', ['a', 'b', 'c', 'd'].map((s) => store(s)), []);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('drops capacity_exceeded from the brief once the capacity holds every in-market account, and tells it again when it is exceeded again', async () => {
      const id = await resize(1);
      await check();
      let b = await brief(id);
      expect(b).toMatchObject({ month: '2026-02', health: 'degraded' });
      expect(b.changes).toEqual([expect.objectContaining({ kind: 'capacity_exceeded', detail: '3 in-market accounts for a capacity of 1: 2 not watched' })]);

      // Raised to 3 in the same month: nothing is exceeded any more.
      await resize(3);
      await check();
      b = await brief(id);
      expect(b).toMatchObject({ month: '2026-02', health: 'healthy', changes: [] });
      expect(b.summary).toBe('In 2026-02, 3 watched stores checked: no changes. Health: healthy.');
      expect(await markdown(id)).not.toContain('capacity');
      const [ended] = await events(id, 'capacity_exceeded');
      expect(ended!.ended_at).not.toBeNull();

      // Lowered to 2, still in February: exceeded again, told again with what holds now.
      await resize(2);
      await check();
      b = await brief(id);
      expect(b).toMatchObject({ month: '2026-02', health: 'degraded' });
      expect(b.changes).toEqual([expect.objectContaining({ kind: 'capacity_exceeded', detail: '3 in-market accounts for a capacity of 2: 1 not watched' })]);
      const told = await events(id, 'capacity_exceeded');
      expect(told.map((e) => [e.month, e.detail, e.ended_at === null])).toEqual([
        ['2026-02', '3 in-market accounts for a capacity of 1: 2 not watched', false],
        ['2026-02', '3 in-market accounts for a capacity of 2: 1 not watched', true],
      ]);
      expect(told[0]!.id).not.toBe(told[1]!.id);

      // Raised again: the finding ends; checks after it record it no more.
      await resize(3);
      await check();
      await resize(4);
      await check();
      expect((await brief(id)).changes).toEqual([]);
      const after = await events(id, 'capacity_exceeded');
      expect(after).toHaveLength(2);
      expect(after.every((e) => e.ended_at !== null)).toBe(true);
      expect(after[0]).toEqual(told[0]);
    });

    it('drops data_stale from the brief once the data is no longer stale, and tells the age the latest check found', async () => {
      const w = await call(h.base, 'POST', '/watches', { key, idem: freshIdem(), body: { type: 'self_directed', store_ids: ['a'] } });
      const id = w.body.id as string;
      h.clock.set('2026-05-02T09:00:00.000Z');
      await check();
      expect((await brief(id)).changes).toEqual([expect.objectContaining({ kind: 'data_stale', detail: 'The latest data is for 2026-02, 3 months before 2026-05' })]);
      h.clock.set('2026-06-02T09:00:00.000Z');
      await check();
      expect((await brief(id)).changes).toEqual([expect.objectContaining({ kind: 'data_stale', detail: 'The latest data is for 2026-02, 4 months before 2026-06' })]);
      // The clock was ahead; set right, February is recent enough again.
      h.clock.set('2026-04-02T09:00:00.000Z');
      await check();
      const b = await brief(id);
      expect(b).toMatchObject({ month: '2026-02', health: 'healthy', changes: [] });
      expect((await events(id, 'data_stale')).map((e) => [e.detail, e.ended_at !== null])).toEqual([
        ['The latest data is for 2026-02, 3 months before 2026-05', true],
        ['The latest data is for 2026-02, 4 months before 2026-06', true],
      ]);
      expect(await check()).toEqual({ checked: 0, changed: 0 });
    });

    it('drops a signal from the brief when a later run of the month withdraws it', async () => {
      const w = await call(h.base, 'POST', '/watches', { key, idem: freshIdem(), body: { type: 'self_directed', store_ids: ['d'] } });
      const id = w.body.id as string;
      h.clock.set('2026-04-02T10:00:00.000Z');
      await seedRun(h.db, '2026-03', 'run-mar', [store('d', { monthly_visits: 5_000 })], [
        { store_id: 'd', type: 'traffic_down', strength: 0.5, detail: 'Monthly visits down 50% (10,000 → 5,000)' },
      ]);
      await check();
      expect(await brief(id)).toMatchObject({ month: '2026-03', health: 'degraded', changes: [expect.objectContaining({ kind: 'traffic_down' })] });
      // A corrected run of March: the visits did not fall.
      await seedRun(h.db, '2026-03', 'run-mar-2', [store('d')], []);
      await check();
      expect(await brief(id)).toMatchObject({ month: '2026-03', health: 'healthy', changes: [] });
      expect((await events(id, 'traffic_down')).map((e) => e.ended_at !== null)).toEqual([true]);
    });
  });
}
