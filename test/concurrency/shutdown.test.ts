/**
 * A scaled-out deployment stopping: two `storelens api` processes and a `storelens worker` on
 * one PostgreSQL database get SIGTERM while requests are in flight. The requests are held in
 * flight by a table lock the test takes (they wait inside their transaction), so the signal
 * certainly arrives while they run; every one is answered, and every process exits 0 with
 * nothing on stderr that speaks of an error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiKey, call, freshIdem, workspace } from '../helpers/api.js';
import { spawnStorelens, startApiProcesses } from '../helpers/api-processes.js';
import { freshDb, pgUrl } from '../helpers/db.js';
import { until } from '../helpers/wait.js';

const N = 8;

describe.skipIf(!pgUrl)(`SIGTERM to two api processes and a worker (${pgUrl ? 'PostgreSQL' : 'PostgreSQL (skipped: set DATABASE_URL)'})`, () => {
  it('answers every request in flight, then every process exits 0', async () => {
    const t = await freshDb('PostgreSQL');
    const dir = mkdtempSync(join(tmpdir(), 'storelens-shutdown-'));
    const ws = await workspace(t.db);
    const key = await apiKey(t.db, ws.id, ['manage:webhooks']);
    const api = await startApiProcesses(t, 2);
    const worker = spawnStorelens(t, ['worker', '--webhooks-allow-local', '--runs', join(dir, 'runs'), '--out', join(dir, 'out')]);
    let release = () => {};
    try {
      await worker.waitFor(/storelens worker: delivering webhook events/);
      // Registering an endpoint counts and writes webhook_endpoints: with the table locked, each request waits in its
      // transaction, the first on the table, the others behind it on the workspace row it holds (the endpoints' cap).
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const holder = t.db.kysely.transaction().execute(async (trx) => {
        await sql`lock table webhook_endpoints in access exclusive mode`.execute(trx);
        locked();
        await held;
      });
      await isLocked;
      const requests = Array.from({ length: N }, (_, i) => call(api.base(i), 'POST', '/webhooks', { key, idem: freshIdem(), body: { url: `http://127.0.0.1:9/h${i}` } }));
      const waiting = async () =>
        Number(
          (await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and (query ilike '%webhook_endpoints%' or query ilike '%"workspaces"%')`.execute(t.db.kysely))
            .rows[0]!.n,
        );
      await until(async () => (await waiting()) >= N);

      const exits = [...api.processes, worker].map((p) => p.stop('SIGTERM'));
      await Promise.all(api.processes.map((p) => p.waitFor(/storelens api: SIGTERM: finishing the requests in flight/)));
      await worker.waitFor(/storelens worker: SIGTERM: finishing/);
      release();
      await holder;

      const answers = await Promise.all(requests);
      expect(answers.map((a) => a.status)).toEqual(Array(N).fill(201));
      const stopped = await Promise.all(exits);
      for (const s of stopped) {
        expect(s.code).toBe(0);
        // The last line, as text or as a JSON log line.
        expect(s.stderr).toMatch(/stopped \(SIGTERM\)("\})?\n$/);
        expect(s.stderr).not.toMatch(/error|unhandled|destroyed|failed/i);
      }
      const endpoints = await t.db.kysely.selectFrom('webhook_endpoints').select('id').where('workspace_id', '=', ws.id).execute();
      expect(endpoints).toHaveLength(N);
    } finally {
      release();
      await Promise.all([...api.processes, worker].map((p) => p.stop('SIGKILL')));
      await api.stop();
      rmSync(dir, { recursive: true, force: true });
      await t.cleanup();
    }
  }, 60_000);
});
