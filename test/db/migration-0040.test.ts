/**
 * Migration 0040_workspace_name_key over workspaces created before it, among them names that
 * differ only in case: every workspace stays found by its own name, a name that differs in case
 * finds the oldest, and no new workspace can take any of their names.
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/compose/database.js';
import { isUniqueViolation } from '../../src/db/errors.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createWorkspace, findWorkspace } from '../../src/workspaces/store.js';

const before = Object.fromEntries(Object.entries(migrations).filter(([key]) => key < '0040'));
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
afterAll(() => db.destroy());

describe('migration 0040 over workspaces named before it', () => {
  it('keeps names that differ only in case, each found by its own name, and refuses a new one of theirs', async () => {
    await migrateToLatest(db, before);
    const rows = [
      { id: 'ws_1', name: 'Acme', created_at: '2026-01-01T00:00:00.000Z' },
      { id: 'ws_2', name: 'acme', created_at: '2026-01-02T00:00:00.000Z' },
      { id: 'ws_3', name: 'Globex', created_at: '2026-01-03T00:00:00.000Z' },
    ];
    for (const row of rows) await db.insertInto('workspaces').values(row).execute();

    expect(await migrateToLatest(db, migrations)).toContain('0040_workspace_name_key');

    expect((await findWorkspace(db, 'Acme'))?.id).toBe('ws_1');
    expect((await findWorkspace(db, 'acme'))?.id).toBe('ws_2');
    expect((await findWorkspace(db, 'ACME'))?.id).toBe('ws_1');
    expect((await findWorkspace(db, 'globex'))?.id).toBe('ws_3');
    for (const name of ['ACME', 'acme', 'GLOBEX']) {
      const refused = await createWorkspace(db, name, new Date()).then(() => null, (e: unknown) => e);
      expect(isUniqueViolation(refused), name).toBe(true);
    }
  });
});
