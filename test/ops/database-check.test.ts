/**
 * The readiness check `database` (compose/health-checks.ts): it passes on a database this build
 * migrated, and says which way it fails: a database that does not answer, one a newer build
 * migrated, one that holds none of storelens's tables (an empty database where the installation's
 * was: dropped and created again, or the wrong one named).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_DOWN, DATABASE_EMPTY, databaseCheck } from '../../src/compose/health-checks.js';
import { CHECK_TIMEOUT_MS } from '../../src/ops/health.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';

for (const d of dialects)
  describe.skipIf(d.skip)(`the database readiness check on ${d.label}`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await freshDb(d.name);
    });
    afterAll(async () => t?.cleanup());

    it('passes on a database this build migrated, and names a migration a newer build applied', async () => {
      const check = databaseCheck(t.db);
      expect(await check.check(CHECK_TIMEOUT_MS)).toBeUndefined();
      await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_build', '2026-12-01T00:00:00.000Z')`.execute(t.db.kysely);
      expect(await check.check(CHECK_TIMEOUT_MS)).toBe('migrations this build does not know (a newer build migrated the database): 9999_from_a_newer_build');
      await sql`delete from kysely_migration where name = '9999_from_a_newer_build'`.execute(t.db.kysely);
    });

    it('says a database that answers but holds no migration is not migrated, not that it does not answer', async () => {
      const warned: string[] = [];
      const check = databaseCheck(t.db, undefined, (line) => warned.push(line));
      await sql`drop table kysely_migration`.execute(t.db.kysely);
      // Before: "the database does not answer", as if it were down, while it answered every statement.
      expect(await check.check(CHECK_TIMEOUT_MS)).toBe(DATABASE_EMPTY);
      expect(DATABASE_EMPTY).toMatch(/^the database holds no migration of storelens/);
      expect(warned).toEqual([]);
    });

    it('does not tell the prober why a database that does not answer does not (the log is told, once)', async () => {
      const warned: string[] = [];
      const closed = await freshDb(d.name);
      const check = databaseCheck(closed.db, undefined, (line) => warned.push(line));
      await closed.cleanup();
      expect(await check.check(CHECK_TIMEOUT_MS)).toBe(DATABASE_DOWN);
      expect(await check.check(CHECK_TIMEOUT_MS)).toBe(DATABASE_DOWN);
      expect(warned).toHaveLength(1);
    });
  });
