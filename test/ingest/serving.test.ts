import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runApi } from '../../src/commands/api.js';
import { openDatabase } from '../../src/compose/database.js';
import { ingestedMonths } from '../../src/ingest/stores.js';
import { capturedEnv } from '../helpers/cli.js';
import { manyStores, writeRuns } from '../helpers/runs-fixture.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

const dirs = tempDirs('storelens-ingest-serve-');
afterAll(() => dirs.removeAll());

describe('storelens api --runs', () => {
  it('ingests on start and each new run while answering requests', async () => {
    const dir = await dirs.make();
    const runs = path.join(dir, 'runs');
    const dbPath = path.join(dir, 'api.db');
    const first = await writeRuns(runs, { '2026-01': { stores: manyStores(200) } });
    const c = capturedEnv();
    const api = await runApi({ port: 0, host: '127.0.0.1', db: dbPath, runs, ingestIntervalMs: 25 }, c.env, false);
    const reader = await openDatabase({ dbPath });
    const runIds = async () => (await ingestedMonths(reader.kysely)).map((m) => m.run_id);
    try {
      await until(async () => (await runIds()).length === 1);
      expect(await runIds()).toEqual([first['2026-01']]);
      const second = await writeRuns(runs, { '2026-01': { stores: manyStores(200, 1) }, '2026-02': { stores: manyStores(5000) } });
      let answered = 0;
      while ((await runIds()).join() !== [second['2026-01'], second['2026-02']].join()) {
        const res = await fetch(`${api.url}/openapi.json`);
        expect(res.status).toBe(200);
        answered++;
      }
      expect(answered).toBeGreaterThan(0);
      // The line is written once the load is over (after the flip, the old rows go first).
      const line = `storelens api: ingested 2026-01, 2026-02 from ${runs} (5200 store rows, 0 signals)`;
      await until(async () => c.stderr().includes(line));
    } finally {
      await reader.close();
      await api.close();
    }
  });

  it('keeps serving, and says why, when the runs folder does not exist', async () => {
    const dir = await dirs.make();
    const c = capturedEnv();
    const api = await runApi({ port: 0, host: '127.0.0.1', db: path.join(dir, 'api.db'), runs: path.join(dir, 'none'), ingestIntervalMs: 25 }, c.env, false);
    try {
      await until(async () => c.stderr().includes('no runs folder'));
      expect((await fetch(`${api.url}/openapi.json`)).status).toBe(200);
      expect(c.stderr()).toContain('still serving what was loaded before');
    } finally {
      await api.close();
    }
  });
});
