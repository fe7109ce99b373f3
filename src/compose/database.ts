/**
 * Opens the workspace database: its type is db/database.ts (each module's tables.ts adds its
 * tables to it); opening it runs every pending migration of the kernel, the API platform and
 * every module, in key order. The migrations are read from each tables.ts, never from a
 * module.ts: an admin command that opens the database loads no module's operations.
 */
import { accountsMigrations } from '../accounts/tables.js';
import { apiMigrations } from '../api/tables.js';
import { contactsMigrations } from '../contacts/tables.js';
import type { Database, Db } from '../db/database.js';
import { openSqlDatabase, type OpenDatabaseOptions } from '../db/index.js';
import { allMigrations } from '../db/migrate.js';
import { kernelMigrations } from '../db/tables.js';
import { dealsMigrations } from '../deals/tables.js';
import { membersMigrations } from '../members/tables.js';
import { oauthMigrations } from '../oauth/tables.js';
import { outreachMigrations } from '../outreach/tables.js';
import { walletMigrations } from '../wallet/tables.js';
import { watchesMigrations } from '../watches/tables.js';
import { webhooksMigrations } from '../webhooks/tables.js';

export { isPostgresUrl, type OpenDatabaseOptions } from '../db/index.js';

export type { Database, Db } from '../db/database.js';

/** Every migration, in key order. */
export const migrations = allMigrations(
  kernelMigrations,
  apiMigrations,
  membersMigrations,
  accountsMigrations,
  contactsMigrations,
  dealsMigrations,
  watchesMigrations,
  walletMigrations,
  outreachMigrations,
  webhooksMigrations,
  oauthMigrations,
);

/** Opens the workspace database (SQLite by default, PostgreSQL for a `postgres://` URL) and migrates it. */
export const openDatabase = (opts: OpenDatabaseOptions = {}): Promise<Db> => openSqlDatabase<Database>(opts, migrations);
