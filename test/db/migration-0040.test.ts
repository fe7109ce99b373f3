/**
 * Migration 0040_workspace_name_key over workspaces created before it, among them names that
 * differ only in case: every workspace stays found by its own name, a name that differs in case
 * finds the oldest, and no new workspace can take any of their names.
 */
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/db/errors.js';
import { createWorkspace, findWorkspace } from '../../src/workspaces/store.js';
import { databaseBeforeMigration } from '../helpers/db.js';

const { db, before, after } = databaseBeforeMigration('0040');

describe('migration 0040 over workspaces named before it', () => {
  it('keeps names that differ only in case, each found by its own name, and refuses a new one of theirs', async () => {
    await before();
    const rows = [
      { id: 'ws_1', name: 'Acme', created_at: '2026-01-01T00:00:00.000Z' },
      { id: 'ws_2', name: 'acme', created_at: '2026-01-02T00:00:00.000Z' },
      { id: 'ws_3', name: 'Globex', created_at: '2026-01-03T00:00:00.000Z' },
    ];
    for (const row of rows) await db.insertInto('workspaces').values(row).execute();

    expect(await after()).toContain('0040_workspace_name_key');

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
