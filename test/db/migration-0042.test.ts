/**
 * Migration 0042_watch_finding_ends over watch events recorded before it, on SQLite and
 * PostgreSQL: each finding's event says which finding it is (the key a check computes), none is
 * ended, every watch is checked again at the next check, and a watch's month holds at most one
 * open event per finding.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/db/errors.js';
import { findingKey } from '../../src/watches/evaluate.js';
import { databaseBeforeMigration, dialects } from '../helpers/db.js';

const AT = '2026-03-05T10:00:00.000Z';
const capacity = { store_id: null, domain: null, kind: 'capacity_exceeded', subject: null, level: 'degraded' as const, detail: '3 in-market accounts for a capacity of 1: 2 not watched' };
/** The id a check gave a finding's event before the migration. */
const legacyId = (watchId: string, month: string, f: { store_id: string | null; kind: string; subject: string | null }) =>
  `wev_${createHash('sha256').update(JSON.stringify([watchId, month, f.store_id, f.kind, f.subject])).digest('hex').slice(0, 24)}`;

for (const d of dialects) {
  describe.skipIf(d.skip)(`migration 0042 on ${d.label}`, () => {
    const { db, before, after } = d.skip ? ({} as ReturnType<typeof databaseBeforeMigration>) : databaseBeforeMigration('0042', d.name);

    it('keys the findings recorded before it, ends none, checks every watch again, and keeps one open event per finding', async () => {
      await before();
      await db.insertInto('workspaces').values({ id: 'ws_1', name: 'one', created_at: AT }).execute();
      const watch = { workspace_id: 'ws_1', type: 'managed', client_name: null, capacity: 1, status: 'active', health: 'degraded', health_reason: capacity.detail, checked_month: '2026-02', checked_at: AT, seq: 1, created_at: AT, updated_at: AT };
      await db.insertInto('watches').values({ ...watch, id: 'wat_1', generation: 'g-1', managed_key: 'ws_1' }).execute();
      const event = (id: string, kind: string, detail: string) => ({ id, watch_id: 'wat_1', month: '2026-02', store_id: null, domain: null, kind, level: 'degraded', detail, created_at: AT });
      const recorded = legacyId('wat_1', '2026-02', capacity);
      await db.insertInto('watch_events').values([event(recorded, 'capacity_exceeded', capacity.detail), event('wev_h1', 'health_changed', 'Health healthy → degraded: …')]).execute();

      expect(await after()).toContain('0042_watch_finding_ends');

      const rows = await db.selectFrom('watch_events').select(['id', 'finding', 'ended_at']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: recorded, finding: findingKey('wat_1', '2026-02', capacity), ended_at: null },
        { id: 'wev_h1', finding: null, ended_at: null },
      ]);
      expect(await db.selectFrom('watches').select('generation').execute()).toEqual([{ generation: null }]);

      const again = { ...event('wev_again', 'capacity_exceeded', capacity.detail), finding: rows[0]!.finding };
      const refused = await db.insertInto('watch_events').values(again).execute().then(() => null, (e: unknown) => e);
      expect(isUniqueViolation(refused)).toBe(true);
      await db.updateTable('watch_events').set({ ended_at: AT }).where('id', '=', recorded).execute();
      await db.insertInto('watch_events').values(again).execute();
      await db.insertInto('watch_events').values(event('wev_h2', 'health_changed', 'Health degraded → healthy: …')).execute();
      expect(await db.selectFrom('watch_events').select('id').where('ended_at', 'is', null).orderBy('id').execute()).toEqual([{ id: 'wev_again' }, { id: 'wev_h1' }, { id: 'wev_h2' }]);
    });
  });
}
