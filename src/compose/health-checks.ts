/** The readiness checks of the workspace database (ops/health.ts runs them). */
import { type Kysely, sql } from 'kysely';
import type { ReadinessCheck } from '../ops/health.js';
import { type Db, migrations } from './database.js';
import { isUndefinedTable } from '../db/errors.js';

/** What a prober is told when the database does not answer: the driver's own words go to the log. */
export const DATABASE_DOWN = 'the database does not answer (the reason is in the log)';
/** What it is told when the database answers without a migration table: not the installation's database (yet). */
export const DATABASE_EMPTY = "the database holds no migration of storelens (an empty database, or not this installation's)";

/**
 * `database`: the database answers, and holds exactly the migrations this build applies (one
 * missing: it was not migrated; one unknown: a newer build migrated it, and this one may
 * misread its tables).
 *
 * Readiness is answered on the serving port too, to whoever asks: the error of a database that
 * does not answer (`connect ECONNREFUSED 10.0.0.5:5432`, `password authentication failed for
 * user "…"`, a file's path) names the installation's hosts, users and files, so the prober gets
 * DATABASE_DOWN and `warn` the error, once each time it changes.
 */
export function databaseCheck(db: Db, expected: readonly string[] = Object.keys(migrations), warn: (line: string) => void = () => undefined): ReadinessCheck {
  let told: string | undefined;
  return {
    name: 'database',
    check: async (withinMs) => {
      let applied: Set<string> | undefined;
      try {
        await db.ping();
        // A database that answers but has no migration table (dropped and created again, another one named) is not down.
        applied = await appliedMigrations(db, withinMs).catch((e: unknown) => {
          if (isUndefinedTable(e)) return undefined;
          throw e;
        });
      } catch (e) {
        const why = (e as Error).message;
        if (why !== told) warn(`not ready: the database does not answer: ${why}`);
        told = why;
        return DATABASE_DOWN;
      }
      told = undefined;
      if (applied === undefined) return DATABASE_EMPTY;
      const missing = expected.filter((m) => !applied.has(m));
      if (missing.length) return `migrations not applied: ${missing.join(', ')}`;
      const known = new Set(expected);
      const unknown = [...applied].filter((m) => !known.has(m));
      if (unknown.length) return `migrations this build does not know (a newer build migrated the database): ${unknown.join(', ')}`;
      return undefined;
    },
  };
}

/**
 * The migrations the database holds. On PostgreSQL the read waits no longer than a probe waits
 * for its answer: a statement timeout ends it on the server and its connection goes back to the
 * pool. Without one, while a lock held up the read, every probe and scrape left one more
 * connection waiting behind it, until the pool had none left for requests.
 */
async function appliedMigrations(db: Db, withinMs: number): Promise<Set<string>> {
  const read = (q: Kysely<any>) => sql<{ name: string }>`select name from kysely_migration`.execute(q);
  const { rows } =
    db.dialect === 'postgres'
      ? await db.kysely.transaction().execute(async (trx) => {
          await sql`set local statement_timeout = ${sql.raw(String(Math.ceil(withinMs)))}`.execute(trx);
          return read(trx);
        })
      : await read(db.kysely);
  return new Set(rows.map((r) => r.name));
}
