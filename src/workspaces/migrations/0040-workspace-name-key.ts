/**
 * 0040_workspace_name_key: workspaces.name_key, a workspace's name as names are compared
 * (workspaces/name-key.ts), unique, so no workspace is created whose name differs from another's
 * only in case ("acme" beside "Acme", which `--workspace acme` could not tell apart).
 *
 * An installation that already has such names keeps them: the oldest takes the key, each later
 * one its key followed by its id (U+001F between them), so every workspace stays found by its own
 * name and no new one can take any of theirs.
 */
import type { Kysely, Migration } from 'kysely';
import { nameKey } from '../name-key.js';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('workspaces').addColumn('name_key', 'text').execute();
    const rows: Array<{ id: string; name: string }> = await db.selectFrom('workspaces').select(['id', 'name']).orderBy('created_at').orderBy('id').execute();
    const taken = new Set<string>();
    for (const { id, name } of rows) {
      const key = taken.has(nameKey(name)) ? `${nameKey(name)}\u001f${id}` : nameKey(name);
      taken.add(key);
      await db.updateTable('workspaces').set({ name_key: key }).where('id', '=', id).execute();
    }
    await db.schema.createIndex('workspaces_by_name_key').unique().on('workspaces').column('name_key').execute();
  },
};
