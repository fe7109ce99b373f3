/**
 * 0031_packed_readers_plpgsql (PostgreSQL only): the functions that read one value of a block's
 * packed column (db/binary.ts: f64_at, i32_at), made by 0029 in SQL, are made again as they are
 * now — f64_at and i32_at in PL/pgSQL, which plans their expressions once per connection where
 * the SQL ones were planned again at every statement calling them (the insert of every outcome
 * calls three). What they answer is unchanged, bit for bit.
 */
import { type Kysely, type Migration, sql } from 'kysely';
import { PG_BINARY_FUNCTIONS } from '../../db/binary.js';
import { onPostgres } from '../../db/locks.js';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    if (!onPostgres(db)) return;
    for (const f of PG_BINARY_FUNCTIONS) await sql.raw(f).execute(db);
  },
};
