/** Classifies database errors so the API answers 503 (temporarily unavailable), not 500. */

const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08003', '08006', '08001', '08004', '40001', '40P01', '55P03']);
const NET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

export function isDatabaseUnavailable(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string') {
    const msg = (e as { message?: unknown }).message;
    return typeof msg === 'string' && /Connection terminated|timeout exceeded when trying to connect|driver has already been destroyed|Cannot use a pool after calling end|The database connection is not open/i.test(msg);
  }
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || PG_UNAVAILABLE.has(code) || NET.has(code);
}

/** True for a unique-constraint violation on either dialect. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
