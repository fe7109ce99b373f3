import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestedMonths } from '../../src/ingest/stores.js';
import type { IngestSummary } from '../../src/ingest/ingest.js';
import { startBackground } from '../../src/compose/background.js';
import type { Db } from '../../src/compose/database.js';
import { ingestCheck, type IngestWatcherOptions } from '../../src/ingest/watcher.js';
import { freshDb } from '../helpers/db.js';
import { manyStores, writeRuns } from '../helpers/runs-fixture.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

const dirs = tempDirs('storelens-watch-');
afterAll(() => dirs.removeAll());

/** The runs folder watched the way a server does it: the ingest task of its worker loop. */
function watch(db: Db, runs: string, opts: IngestWatcherOptions) {
  const looked = { checks: 0 };
  const watcher = startBackground(db, {
    now: opts.now,
    log: () => {},
    everyMs: 3_600_000,
    ingest: {
      everyMs: opts.intervalMs!,
      check: () => {
        const look = ingestCheck(db, runs, opts);
        return (stopping) => look(stopping).finally(() => (looked.checks += 1));
      },
    },
  });
  return { stop: () => watcher.stop(), checks: () => looked.checks };
}

describe('ingest watcher', () => {
  it('ingests on start, then every new index.json while running, and reports a bad one without stopping', async () => {
    const t = await freshDb('SQLite');
    const runs = path.join(await dirs.make(), 'runs');
    const loaded: IngestSummary[] = [];
    const errors: string[] = [];
    const w = watch(t.db, runs, {
      intervalMs: 30,
      now: () => new Date('2026-11-02T09:30:00Z'),
      onLoaded: async (s) => {
        loaded.push(s);
      },
      onError: (e) => errors.push(e.message),
    });
    try {
      // No runs folder yet: said once, and the watcher keeps looking.
      await until(() => errors.length === 1);
      expect(errors[0]).toContain('no runs folder');
      const first = await writeRuns(runs, { '2026-01': { stores: manyStores(50) } });
      await until(() => loaded.length === 1);
      expect(loaded[0]).toEqual({ months: ['2026-01'], stores: 50, signals: 0 });

      // While writeRuns made the folder, the watcher may have looked before index.json was there
      // (said as missing): the broken index is the next error either way.
      const before = errors.length;
      expect(errors.slice(1).every((e) => e.includes('index.json: missing'))).toBe(true);
      await writeFile(path.join(runs, 'index.json'), '{"runs_version":1,"months":');
      await until(() => errors.length === before + 1);
      expect(errors[before]).toContain('index.json: not JSON');
      expect((await ingestedMonths(t.db.kysely)).map((m) => m.run_id)).toEqual([first['2026-01']]);

      const second = await writeRuns(runs, { '2026-01': { stores: manyStores(50, 1) }, '2026-02': { stores: manyStores(60) } });
      await until(() => loaded.length === 2);
      expect(loaded[1]).toEqual({ months: ['2026-01', '2026-02'], stores: 110, signals: 0 });
      expect((await ingestedMonths(t.db.kysely)).map((m) => m.run_id)).toEqual([second['2026-01'], second['2026-02']]);
      // Looked at again and again since: the same index.json is not loaded twice.
      const seen = w.checks();
      await until(() => w.checks() >= seen + 3);
      expect(loaded).toHaveLength(2);
      expect(errors).toHaveLength(before + 1);
    } finally {
      await w.stop();
      await t.cleanup();
    }
  });

  it('reports a failing onLoaded and goes on watching', async () => {
    const t = await freshDb('SQLite');
    const runs = await dirs.make();
    const errors: string[] = [];
    let calls = 0;
    const w = watch(t.db, runs, {
      intervalMs: 30,
      now: () => new Date('2026-11-02T09:30:00Z'),
      onLoaded: async () => {
        calls++;
        throw new Error('re-scoring failed');
      },
      onError: (e) => errors.push(e.message),
    });
    try {
      await writeRuns(runs, { '2026-01': { stores: manyStores(5) } });
      await until(() => errors.length === 1);
      expect(errors).toEqual(['re-scoring failed']);
      await writeRuns(runs, { '2026-01': { stores: manyStores(5) }, '2026-02': { stores: manyStores(6) } });
      await until(() => calls === 2);
    } finally {
      await w.stop();
      await t.cleanup();
    }
  });
});
