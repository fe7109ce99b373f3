/**
 * Runs once before the suite (vitest globalSetup): with DATABASE_URL set, migrates one template
 * database beside it, from which every test's fresh PostgreSQL database is copied (CREATE DATABASE
 * … TEMPLATE: about a tenth of a second, where running every migration in a new schema took close
 * to one), its server secrets made once (seed-secrets.ts). Dropped, with any copy a killed worker left, after the suite; what a killed run left, at the start of the next.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/compose/database.js';
import { dropAbandoned, dropStartingWith, pgUrl, runPrefix, templateName } from './pg-names.js';
import { seedServerSecrets } from './seed-secrets.js';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const url = pgUrl;
  if (!url) return undefined;
  const template = templateName(url);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await dropAbandoned(admin, url);
    await admin.query(`create database "${template}"`);
    const db = await openDatabase({ databaseUrl: Object.assign(new URL(url), { pathname: `/${template}` }).toString(), poolSize: 1 });
    await seedServerSecrets(db);
    await db.close();
  } finally {
    await admin.end();
  }
  project.provide('pgTemplate', template);
  return async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      // A copy made ahead (helpers/db.ts) may still be being created by a worker that has
      // exited: its CREATE DATABASE ends on the server regardless, after which it can be dropped.
      await settleCopies(c, url);
      await dropStartingWith(c, runPrefix(url));
    } finally {
      await c.end();
    }
  };
}

/** Resolves once no session is creating or dropping one of the copies made beside `url`'s database (or after a minute). */
async function settleCopies(c: pg.Client, url: string): Promise<void> {
  const making = `^(create|drop) database "${runPrefix(url)}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const { rows } = await c.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where state = 'active' and query ~* $1", [making]);
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string | undefined;
  }
}
