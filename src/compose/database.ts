/**
 * Opens the workspace database: its type is db/database.ts (each module's tables.ts adds its
 * tables to it); opening it runs every pending migration of the kernel, the API platform and
 * every module (compose/modules.ts), in key order.
 */
import { apiMigrations } from '../api/tables.js';
import type { Database, Db } from '../db/database.js';
import { openSqlDatabase, type OpenDatabaseOptions } from '../db/index.js';
import { allMigrations } from '../db/migrate.js';
import { kernelMigrations } from '../db/tables.js';
import { MODULES } from './modules.js';

export { isPostgresUrl, type OpenDatabaseOptions } from '../db/index.js';

export type { Database, Db } from '../db/database.js';

/** Every migration, in key order. */
export const migrations = allMigrations(kernelMigrations, apiMigrations, ...MODULES.map((m) => m.migrations ?? {}));

/** Opens the workspace database (SQLite by default, PostgreSQL for a `postgres://` URL) and migrates it. */
export const openDatabase = (opts: OpenDatabaseOptions = {}): Promise<Db> => openSqlDatabase<Database>(opts, migrations);
