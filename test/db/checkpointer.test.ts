import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { freshDb, type TestDb } from '../helpers/db.js';
import { startCheckpointer } from '../../src/db/checkpointer.js';

describe('WAL checkpoints on SQLite', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb('SQLite');
  });
  afterAll(async () => t?.cleanup());

  it('copies committed writes back into the database file from a worker, not the writing connection', async () => {
    const auto = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(t.db.kysely);
    expect(auto.rows[0]!.wal_autocheckpoint).toBeGreaterThan(1000);
    const before = statSync(t.dbPath!).size;
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => t.db.write((trx) => trx.insertInto('settings').values({ name: `ck-${i}`, value: 'x'.repeat(1000) }).execute())),
    );
    // 200 kB went to the WAL; the writing connection's own threshold (40 MB) is far away. A
    // checkpointer's worker is asked for its checkpoint rather than waited for on the clock.
    const checkpointer = startCheckpointer(t.dbPath!, { everyMs: 0 });
    try {
      await checkpointer.checkpoint();
    } finally {
      await checkpointer.stop();
    }
    expect(statSync(t.dbPath!).size - before).toBeGreaterThan(150_000);
  });
});
