/**
 * A benchmark's own schema of the PostgreSQL database at DATABASE_URL: made empty, reached by a
 * URL whose connections search it first, and dropped (with everything in it) at the end, so a
 * benchmark never meets another's rows or leaves its own behind.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';

export interface BenchSchema {
  /** DATABASE_URL with the schema as its search path: what the benchmark's handles and processes open. */
  url: string;
  /** A connection of the benchmark's own outside the pool (to ask the server about its sessions). */
  admin: Client;
  drop(): Promise<void>;
}

export async function benchSchema(databaseUrl: string, prefix: string): Promise<BenchSchema> {
  const { default: pg } = await import('pg');
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    admin,
    drop: async () => {
      try {
        await admin.query(`drop schema "${schema}" cascade`);
      } finally {
        await admin.end();
      }
    },
  };
}
