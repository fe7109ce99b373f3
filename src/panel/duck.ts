/** The DuckDB edge: one in-process database, plain-JS rows out, deliberate number conversion. */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export interface Duck {
  conn: DuckDBConnection;
  /** Runs a statement for its effect. */
  run(sql: string): Promise<void>;
  /** Runs a query; values come back as JSON-ish: BIGINT, HUGEINT and DECIMAL as strings. */
  all<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  /**
   * Stops the statement running (DuckDB's interrupt) and refuses every later one: a run stopped
   * by a signal fails at its next statement, so its own cleanup runs.
   */
  interrupt(): void;
  close(): void;
}

/** How much a DuckDB instance may hold in memory, and where it spills what does not fit. */
export interface DuckMemory {
  /** DuckDB's memory_limit in bytes (absent: DuckDB's default, 80% of the machine's memory) */
  limitBytes?: number;
  /** the folder DuckDB spills to (temp_directory): made by DuckDB when it first spills */
  spillDir?: string;
}

export async function openDuck(options: { threads?: number } & DuckMemory = {}): Promise<Duck> {
  const config: Record<string, string> = {};
  if (options.threads) config.threads = String(options.threads);
  if (options.limitBytes !== undefined) config.memory_limit = `${Math.floor(options.limitBytes / 1024 ** 2)}MiB`;
  if (options.spillDir !== undefined) config.temp_directory = options.spillDir;
  const instance = await DuckDBInstance.create(':memory:', config);
  const conn = await instance.connect();
  let interrupted = false;
  const open = () => {
    if (interrupted) throw new Error('interrupted');
  };
  return {
    conn,
    run: async (sql) => {
      open();
      await conn.run(sql);
    },
    all: async <T>(sql: string) => {
      open();
      return (await conn.runAndReadAll(sql)).getRowObjectsJson() as T[];
    },
    interrupt: () => {
      interrupted = true;
      conn.interrupt();
    },
    close: () => {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

/** A count or exact sum from DuckDB (string or number) as a JS number; refuses to lose precision. */
export function toNumber(value: unknown): number {
  if (value === null || value === undefined) return 0;
  const n = typeof value === 'number' ? value : Number(value as string);
  if (!Number.isFinite(n)) throw new Error(`not a number: ${String(value)}`);
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) throw new Error(`integer too large to publish exactly: ${String(value)}`);
  return n;
}

/** SQL quoting, beside the engine for its users (core/sql.ts). */
export { ident, lit } from '../core/sql.js';
