/**
 * Opens the workspace database: its type is db/database.ts (each module's tables.ts adds its
 * tables to it); opening it runs every pending migration of the kernel, the API platform and
 * every module, in key order. The migrations are found, not listed: every folder of src/ with a
 * `migrations/` directory contributes its `NNNN-what-it-does` files, recorded under the key
 * `NNNN_what_it_does`. Only those files are loaded (never a module.ts), so an admin command that
 * opens the database loads no module's operations, and a new module's tables need no line here.
 */
import { readdirSync } from 'node:fs';
import type { Migration } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { openSqlDatabase, type OpenDatabaseOptions } from '../db/index.js';
import { allMigrations, type Migrations } from '../db/migrate.js';
import { foldersWith, OWN_EXTENSION } from './source-folders.js';

export { isPostgresUrl, type OpenDatabaseOptions } from '../db/index.js';

export type { Database, Db } from '../db/database.js';

/** `NNNN-what-it-does.ts` under src/, `.js` under dist/. */
const MIGRATION_FILE = new RegExp(`^(\\d{4})-([a-z0-9-]+)\\${OWN_EXTENSION}$`);

/** Each folder's migrations, by the key each is recorded under. */
async function findMigrations(): Promise<Migrations[]> {
  return Promise.all(
    foldersWith('migrations/').map(async ({ url: dir }) => {
      const mine = readdirSync(dir).filter((f) => MIGRATION_FILE.test(f));
      const loaded = await Promise.all(
        mine.map(async (f) => {
          const [, number, name] = MIGRATION_FILE.exec(f)!;
          const { migration } = (await import(new URL(f, dir).href)) as { migration: Migration };
          return [`${number}_${name.replaceAll('-', '_')}`, migration] as const;
        }),
      );
      return Object.fromEntries(loaded);
    }),
  );
}

/** Every migration, in key order. */
export const migrations: Migrations = allMigrations(...(await findMigrations()));

/** Opens the workspace database (SQLite by default, PostgreSQL for a `postgres://` URL) and migrates it. */
export const openDatabase = (opts: OpenDatabaseOptions = {}): Promise<Db> => openSqlDatabase<Database>(opts, migrations);
