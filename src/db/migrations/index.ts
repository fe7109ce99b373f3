/**
 * The one set of migrations, run on start on SQLite and PostgreSQL alike: one file a migration
 * beside this one, listed below under the key kysely records in its migration table.
 *
 * Kysely runs them in key order and refuses a database that has applied a key sorting after one
 * it has not, so a new migration takes a number after the last key (the gaps at 0011 and 0014
 * stay empty). It is a file `NNNN-what-it-does.ts` exporting `migration`, imported and listed
 * here as 'NNNN_what_it_does'. Never edit or rename a migration that has shipped.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { migration as apiPlatform } from './0001-api-platform.js';
import { migration as rankingHistory } from './0002-ranking-history.js';
import { migration as accountsVersion } from './0003-accounts-version.js';
import { migration as accountsIntelligence } from './0004-accounts-intelligence.js';
import { migration as deals } from './0005-deals.js';
import { migration as contacts } from './0006-contacts.js';
import { migration as watches } from './0007-watches.js';
import { migration as webhooks } from './0008-webhooks.js';
import { migration as rankingVersions } from './0009-ranking-versions.js';
import { migration as wallet } from './0010-wallet.js';
import { migration as membersAuth } from './0012-members-auth.js';
import { migration as moneyInvariants } from './0013-money-invariants.js';
import { migration as leases } from './0015-leases.js';
import { migration as rateCounterPrev } from './0016-rate-counter-prev.js';
import { migration as outboxOrder } from './0017-outbox-order.js';

/** Every migration by the name it is recorded under, in key order. */
export const migrations: Readonly<Record<string, Migration>> = {
  '0001_api_platform': apiPlatform,
  '0002_ranking_history': rankingHistory,
  '0003_accounts_version': accountsVersion,
  '0004_accounts_intelligence': accountsIntelligence,
  '0005_deals': deals,
  '0006_contacts': contacts,
  '0007_watches': watches,
  '0008_webhooks': webhooks,
  '0009_ranking_versions': rankingVersions,
  '0010_wallet': wallet,
  '0012_members_auth': membersAuth,
  '0013_money_invariants': moneyInvariants,
  '0015_leases': leases,
  '0016_rate_counter_prev': rateCounterPrev,
  '0017_outbox_order': outboxOrder,
};

class InCodeProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** Runs every pending migration; resolves to the names applied now (empty when up to date). */
export async function migrateToLatest(db: Kysely<any>, migrationTableSchema?: string): Promise<string[]> {
  // On PostgreSQL the schema must be named: kysely otherwise finds another schema's migration tables.
  const migrator = new Migrator({ db, provider: new InCodeProvider(), migrationTableSchema });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    // The migrator reads the catalog of every schema; another session creating or dropping a
    // schema of the same PostgreSQL database meanwhile can fail that read. Nothing was migrated
    // (PostgreSQL migrates in one transaction): read again.
    if (error && attempt < 5 && CATALOG_RACES.has((error as { code?: string }).code ?? '')) continue;
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }
}

/** PostgreSQL's invalid_schema_name, undefined_column and undefined_table. */
const CATALOG_RACES = new Set(['3F000', '42703', '42P01']);
