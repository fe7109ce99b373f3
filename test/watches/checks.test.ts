/**
 * Where watches get checked: the server's background worker after it ingests a new run (real
 * DuckDB runs folder), and the `storelens ingest` command after it loads one.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBackground } from '../../src/compose/background.js';
import type { Db } from '../../src/compose/database.js';
import { openDatabase } from '../../src/compose/database.js';
import { listEvents } from '../../src/webhooks/outbox.js';
import { addWatchStores, getWatch, insertWatch, pageWatchReceipts } from '../../src/watches/store.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { ingestCheck } from '../../src/ingest/watcher.js';
import { seedAccounts } from '../helpers/accounts.js';
import { dialects, freshDb } from '../helpers/db.js';
import { runBin } from '../helpers/published.js';
import { type FixtureMonth, writeRuns } from '../helpers/runs-fixture.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

const dirs = tempDirs('storelens-watch-checks-');
afterAll(() => dirs.removeAll());

const NOW = () => new Date('2026-03-10T09:00:00Z');

const JAN: FixtureMonth = { stores: [{ store_id: 'a', monthly_visits: 5_000 }, { store_id: 'b', monthly_visits: 5_000 }] };
const FEB: FixtureMonth = {
  stores: [{ store_id: 'b', monthly_visits: 5_000 }],
  signals: [{ store_id: 'a', type: 'store_closed', strength: 1, detail: 'No longer in the panel in 2026-02 (present the month before)' }],
};

/** A workspace whose self-directed watch holds store "a". */
async function watchOfA(db: Db): Promise<{ workspaceId: string; watchId: string }> {
  const ws = await createWorkspace(db.kysely, `w-${Math.random().toString(36).slice(2)}`, new Date());
  await seedAccounts(db, ws.id, [{ store_id: 'a', score: 0.9 }, { store_id: 'b', score: 0.8 }]);
  const w = await db.write(async (trx) => {
    const row = await insertWatch(trx, { workspace_id: ws.id, type: 'self_directed', client_name: null, capacity: null, health: 'healthy', health_reason: 'Not checked yet' }, NOW());
    await addWatchStores(trx, row.id, ['a'], NOW());
    return row;
  });
  return { workspaceId: ws.id, watchId: w.id };
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`watch checks on ${d.label}`, () => {
    it("the server's worker checks the watches after each ingest: one event when the watched store closes", async () => {
      const t = await freshDb(d.name);
      const runs = path.join(await dirs.make(), 'runs');
      const { workspaceId, watchId } = await watchOfA(t.db);
      const bg = startBackground(t.db, {
        now: NOW,
        log: () => {},
        everyMs: 3_600_000,
        watchesEveryMs: 3_600_000,
        ingest: { everyMs: 30, check: (onLoaded) => ingestCheck(t.db, runs, { intervalMs: 30, now: NOW, onLoaded: async () => onLoaded(), onError: () => {} }) },
      });
      try {
        await writeRuns(runs, { '2026-01': JAN });
        const jan = await until(async () => (await getWatch(t.db.kysely, workspaceId, watchId))?.checked_month === '2026-01');
        expect(jan).toBe(true);
        expect((await getWatch(t.db.kysely, workspaceId, watchId))!.health).toBe('healthy');
        await writeRuns(runs, { '2026-01': JAN, '2026-02': FEB });
        await until(async () => (await getWatch(t.db.kysely, workspaceId, watchId))?.health === 'failing');
        await bg.worker.idle();
        const events = (await listEvents(t.db.kysely, workspaceId)).filter((e) => e.type === 'watch.health_changed');
        expect(events.map((e) => e.data)).toEqual([
          { watch_id: watchId, from: 'healthy', to: 'failing', reason: 'a: No longer in the panel in 2026-02 (present the month before)' },
        ]);
        const receipts = await pageWatchReceipts(t.db.kysely, watchId, undefined, 10);
        expect(receipts.map((r) => [r.month, JSON.parse(r.store_ids), r.health])).toEqual([
          ['2026-02', ['a'], 'failing'],
          ['2026-01', ['a'], 'healthy'],
        ]);
      } finally {
        await bg.stop();
        await t.cleanup();
      }
    });
  });
}

describe('storelens ingest', () => {
  it('checks the watches after loading, and writes nothing more when run again', async () => {
    const dir = await dirs.make();
    const runs = path.join(dir, 'runs');
    const dbPath = path.join(dir, 'api.db');
    let db = await openDatabase({ dbPath });
    const { workspaceId, watchId } = await watchOfA(db);
    await db.close();
    await writeRuns(runs, { '2026-01': JAN, '2026-02': FEB });
    const first = await bin(['ingest', '--runs', runs, '--db', dbPath, '--json']);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('checked 1 watch (1 changed health)');
    const again = await bin(['ingest', '--runs', runs, '--db', dbPath, '--json']);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('checked');
    db = await openDatabase({ dbPath });
    try {
      expect((await getWatch(db.kysely, workspaceId, watchId))).toMatchObject({ health: 'failing', checked_month: '2026-02' });
      expect(await pageWatchReceipts(db.kysely, watchId, undefined, 10)).toHaveLength(1);
      expect((await listEvents(db.kysely, workspaceId)).filter((e) => e.type === 'watch.health_changed')).toHaveLength(1);
    } finally {
      await db.close();
    }
  });
});

/** The built binary (`npm run build` first) on a SQLite file. */
const bin = (args: string[]) => runBin(args, { databaseUrl: null });
