/**
 * Table types of the storage kernel: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */

/** The server's generated secrets (db/server-secrets.ts), in the table shipped as `settings`. */
export interface ServerSecretsTable {
  name: string;
  value: string;
}

/** A lease on a unit of background work (db/leases.ts). */
export interface LeasesTable {
  name: string;
  owner: string;
  until_ms: number | string;
}

/** The kernel tables, by name: the base of the workspace database (db/database.ts). */
export interface KernelTables {
  settings: ServerSecretsTable;
  leases: LeasesTable;
}

