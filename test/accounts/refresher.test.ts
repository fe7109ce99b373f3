/**
 * The refresher re-ranks on a worker thread with its own connection when the database can be
 * opened twice, and the ranking it writes is the one readers see — the same as an in-process
 * re-ranking of the same inputs would write.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { startRefresher } from '../../src/accounts/refresher.js';
import { openDatabase } from '../../src/compose/database.js';
import { currentRows } from '../../src/accounts/ranking-reads.js';
import { workspace } from '../helpers/api.js';
import { seedRun, type SeedSignal, type SeedStore } from '../helpers/accounts.js';
import { dialects, freshDb, pgUrl, refusableDatabase, type TestDb } from '../helpers/db.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';

const NOW = new Date('2026-11-01T00:00:00Z');

function panel(): { stores: SeedStore[]; signals: SeedSignal[] } {
  const stores: SeedStore[] = [];
  const signals: SeedSignal[] = [];
  for (let i = 0; i < 60; i++) {
    const id = `r${String(i).padStart(3, '0')}`;
    stores.push({ store_id: id, country: i % 2 ? 'US' : 'GB', category: i % 3 ? 'beauty' : 'toys', plan: 'grow', monthly_visits: 500 + 10 * i, apps: [], ads: i % 4 ? [] : ['meta'] });
    signals.push({ store_id: id, type: 'app_installed', subject: 'klaviyo', strength: 1, detail: 'Installed Klaviyo' });
  }
  return { stores, signals };
}

/** The nice value of each thread of this process (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`the refresher on ${d.label}`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await freshDb(d.name);
      const { stores, signals } = panel();
      await seedRun(t.db, '2026-09', 'run-09', stores, []);
      await seedRun(t.db, '2026-10', 'run-10', stores, signals);
    });
    afterAll(async () => t?.cleanup());

    it('re-ranks on its own thread, and writes what an in-process re-ranking writes', async () => {
      const ws = await workspace(t.db);
      const priorityBefore = getPriority();
      const refresher = startRefresher(t.db);
      try {
        expect(refresher.where).toBe('thread');
        const results = await refresher.refreshAll(NOW);
        expect(results.get(ws.id)).toMatchObject({ refreshed: true, accounts: 60, model_version: 1 });
        if (process.platform === 'linux') {
          // The re-ranking thread yields the CPU to requests; the thread answering them keeps its priority.
          expect(threadNiceValues()).toContain(19);
          expect(getPriority()).toBe(priorityBefore);
        }
      } finally {
        await refresher.close();
      }
      // By store (ties in score keep the list in another order).
      const scores = async () => (await currentRows(t.db.kysely, ws.id)).map((r) => [r.store_id, r.score, r.logit]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
      const threaded = await scores();
      expect(threaded).toHaveLength(60);
      // The same inputs re-ranked in this thread: the same scores.
      expect(await refreshWorkspace(t.db, ws.id, NOW, { force: true })).toMatchObject({ refreshed: true, model_version: 2 });
      expect(await scores()).toEqual(threaded);
    });
  });
}

describe.skipIf(!pgUrl)(`the refresher thread when PostgreSQL refused its first connection${pgUrl ? '' : ' (skipped: set DATABASE_URL)'}`, () => {
  it('opens its connection again at the next re-rank once the database takes connections', async () => {
    const served = await refusableDatabase('sl_refresher');
    const db = await openDatabase({ databaseUrl: served.databaseUrl });
    const refresher = startRefresher(db);
    try {
      const ws = await workspace(db);
      // New connections refused; the process's open one still answers (it lists the workspaces).
      await served.refuse(false);
      const refused = await refresher.refreshAll(NOW).then(() => null, (e: unknown) => e);
      expect(String(refused)).toMatch(/not currently accepting connections/);
      // Told as the database unavailable (one outage line in the log), as on the calling thread.
      expect(isDatabaseUnavailable(refused)).toBe(true);
      await served.accept();
      // Before: the thread kept its failed open, and every re-rank failed so until the process restarted.
      expect((await refresher.refreshAll(NOW)).has(ws.id)).toBe(true);
    } finally {
      await refresher.close();
      await db.close();
      await served.drop();
    }
  });
});

describe('the refresher of an in-memory database', () => {
  it('re-ranks in-process (another thread cannot open that database)', async () => {
    const db = await openDatabase({ dbPath: ':memory:' });
    try {
      const refresher = startRefresher(db);
      expect(refresher.where).toBe('in-process');
      expect(await refresher.refreshAll(NOW)).toEqual(new Map());
      await refresher.close();
    } finally {
      await db.close();
    }
  });
});
