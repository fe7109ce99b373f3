/** Names of the databases a run of the suite makes beside DATABASE_URL's (its template and the tests' copies). */
import { createHash } from 'node:crypto';
import type pg from 'pg';

export const pgUrl: string | undefined = process.env.DATABASE_URL;

/**
 * What every database a run makes beside `url`'s starts with: short (PostgreSQL names stop at
 * 63 bytes), its own for each DATABASE_URL and each run (the run's process id), so two runs at
 * once on one database never drop each other's.
 */
export function runPrefix(url: string, run: number = process.pid): string {
  return `${urlPrefix(url)}${run}_`;
}

/** The run's template, from which each fresh database is copied. */
export const templateName = (url: string): string => `${runPrefix(url)}tpl`;

/** A fresh copy's name, in the run of `template`. */
export const copyName = (template: string, suffix: string): string => `${template.slice(0, -'tpl'.length)}${process.pid}_${suffix}`;

const urlPrefix = (url: string): string => `slt_${createHash('sha256').update(new URL(url).pathname).digest('hex').slice(0, 8)}_`;

/** Drops every database whose name starts with `prefix`. */
export async function dropStartingWith(admin: pg.Client, prefix: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
  for (const { datname } of rows) await admin.query(`drop database "${datname}" with (force)`);
}

/** Drops what runs beside `url`'s database left when they were killed (their process is gone). */
export async function dropAbandoned(admin: pg.Client, url: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [urlPrefix(url)]);
  const runs = new Set(rows.map(({ datname }) => Number(datname.slice(urlPrefix(url).length).split('_')[0])));
  for (const run of runs) if (Number.isSafeInteger(run) && !alive(run)) await dropStartingWith(admin, runPrefix(url, run));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
