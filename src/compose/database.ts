/**
 * The workspace database: the union of every aggregate's tables (each aggregate's tables.ts) over
 * the storage kernel (db/). Opening it runs every pending migration of every aggregate, in key
 * order. The rest of the product types its queries with `Database` and its handles with `Db`.
 */
import { openSqlDatabase, type Db as KernelDb, type OpenDatabaseOptions } from '../db/index.js';
import { allMigrations } from '../db/migrate.js';
import { type AccountsTables, accountsMigrations } from '../accounts/tables.js';
import { type ApiTables, apiMigrations } from '../api/tables.js';
import { type ContactsTables, contactsMigrations } from '../contacts/tables.js';
import { type KernelTables, kernelMigrations } from '../db/tables.js';
import { type DealsTables, dealsMigrations } from '../deals/tables.js';
import type { IngestTables } from '../ingest/tables.js';
import { type MembersTables, membersMigrations } from '../members/tables.js';
import { type OauthTables, oauthMigrations } from '../oauth/tables.js';
import { type OutreachTables, outreachMigrations } from '../outreach/tables.js';
import type { ReportsTables } from '../reports/tables.js';
import { type WalletTables, walletMigrations } from '../wallet/tables.js';
import { type WatchesTables, watchesMigrations } from '../watches/tables.js';
import { type WebhooksTables, webhooksMigrations } from '../webhooks/tables.js';
import type { WorkspacesTables } from '../workspaces/tables.js';

export { isPostgresUrl, type OpenDatabaseOptions } from '../db/index.js';

export interface Database
  extends KernelTables,
    WorkspacesTables,
    MembersTables,
    ApiTables,
    AccountsTables,
    IngestTables,
    ContactsTables,
    DealsTables,
    WatchesTables,
    WalletTables,
    ReportsTables,
    OutreachTables,
    WebhooksTables,
    OauthTables {}

/** An open workspace database. */
export type Db = KernelDb<Database>;

/** Every migration of every aggregate, in key order. */
export const migrations = allMigrations(kernelMigrations, membersMigrations, apiMigrations, accountsMigrations, contactsMigrations, dealsMigrations, watchesMigrations, walletMigrations, outreachMigrations, webhooksMigrations, oauthMigrations);

/** Opens the workspace database (SQLite by default, PostgreSQL for a `postgres://` URL) and migrates it. */
export const openDatabase = (opts: OpenDatabaseOptions = {}): Promise<Db> => openSqlDatabase<Database>(opts, migrations);
