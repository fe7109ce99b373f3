/** SQL quoting, engine-free: registries that declare SQL (panel/signals.ts) use it without opening DuckDB. */

/** SQL string literal. */
export const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;
/** SQL identifier. */
export const ident = (s: string): string => `"${s.replaceAll('"', '""')}"`;
