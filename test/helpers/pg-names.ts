/** Names of the databases the suite makes beside DATABASE_URL's (its template and the tests' copies). */
import { createHash } from 'node:crypto';
import type pg from 'pg';

export const pgUrl: string | undefined = process.env.DATABASE_URL;

/**
 * What every database the suite makes beside `url`'s starts with: short (PostgreSQL names stop at
 * 63 bytes) and its own for each DATABASE_URL, so two runs on two databases never meet.
 */
export function copyPrefix(url: string): string {
  return `slt_${createHash('sha256').update(new URL(url).pathname).digest('hex').slice(0, 8)}_`;
}

/** Drops the template and every copy made beside `url`'s database. */
export async function dropCopies(admin: pg.Client, url: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [copyPrefix(url)]);
  for (const { datname } of rows) await admin.query(`drop database "${datname}" with (force)`);
}
