/**
 * The migration runner, on SQLite and PostgreSQL alike. Each module keeps the migrations of its
 * tables in its `migrations/` folder (one file a migration, `NNNN-what-it-does.ts`, recorded
 * under the key 'NNNN_what_it_does'); compose/database.ts finds them and hands their union to
 * this runner.
 *
 * Kysely runs them in key order and refuses a database that has applied a key sorting after one
 * it has not, so a new migration takes a number after the last key of every module (the gaps
 * at 0011 and 0014 stay empty). The early migrations each created the tables of several
 * modules; each lives with the module it is named for. Never edit or rename a migration
 * that has shipped.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';

export type Migrations = Readonly<Record<string, Migration>>;

/** The union of several lists of migrations; a key listed twice is a mistake of the code. */
export function allMigrations(...lists: readonly Migrations[]): Migrations {
  const all: Record<string, Migration> = {};
  for (const list of lists)
    for (const [key, m] of Object.entries(list)) {
      if (key in all) throw new Error(`migration ${key} is listed twice`);
      all[key] = m;
    }
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

class InCodeProvider implements MigrationProvider {
  constructor(private readonly migrations: Migrations) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return { ...this.migrations };
  }
}

/** Runs every pending migration; resolves to the names applied now (empty when up to date). */
export async function migrateToLatest(db: Kysely<any>, migrations: Migrations, migrationTableSchema?: string): Promise<string[]> {
  // On PostgreSQL the schema must be named: kysely otherwise finds another schema's migration tables.
  const migrator = new Migrator({ db, provider: new InCodeProvider(migrations), migrationTableSchema });
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
