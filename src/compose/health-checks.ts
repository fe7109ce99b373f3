/** The readiness checks of the workspace database (ops/health.ts runs them). */
import { sql } from 'kysely';
import type { ReadinessCheck } from '../ops/health.js';
import { type Db, migrations } from './database.js';

/**
 * `database`: the database answers, and holds exactly the migrations this build applies (one
 * missing: it was not migrated; one unknown: a newer build migrated it, and this one may
 * misread its tables).
 */
export function databaseCheck(db: Db, expected: readonly string[] = Object.keys(migrations)): ReadinessCheck {
  return {
    name: 'database',
    check: async () => {
      await db.ping();
      const rows = (await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely)).rows;
      const applied = new Set(rows.map((r) => r.name));
      const missing = expected.filter((m) => !applied.has(m));
      if (missing.length) return `migrations not applied: ${missing.join(', ')}`;
      const known = new Set(expected);
      const unknown = [...applied].filter((m) => !known.has(m));
      if (unknown.length) return `migrations this build does not know (a newer build migrated the database): ${unknown.join(', ')}`;
      return undefined;
    },
  };
}
