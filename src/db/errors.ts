/** Classifies database errors so the API answers 503 (temporarily unavailable), not 500. */

const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08003', '08006', '08001', '08004', '40001', '40P01', '55P03']);
/**
 * A connection refused, cut or timed out; a name that does not resolve, or whose resolver did not
 * answer (EAI_AGAIN); a host that is down (EHOSTUNREACH: nothing answers for its address on its
 * network) or a network with no route to it (ENETUNREACH, ENETDOWN: an interface or VPN down).
 */
const NET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN']);

/**
 * PostgreSQL ends the session with every error of severity FATAL (or PANIC): the server refused
 * the connection (`database "…" is not currently accepting connections`, 55000; a database that
 * does not exist, 3D000; a password that no longer works, 28P01) or ended it (57P01, 25P03 …).
 * Whatever its SQLSTATE, nothing on that connection answers any more.
 */
const PG_SESSION_ENDED = new Set(['FATAL', 'PANIC']);

export function isDatabaseUnavailable(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  if (e instanceof DatabaseUnavailable) return true;
  const severity = (e as { severity?: unknown }).severity;
  if (typeof severity === 'string' && PG_SESSION_ENDED.has(severity)) return true;
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string') {
    const msg = (e as { message?: unknown }).message;
    return typeof msg === 'string' && /Connection terminated|timeout exceeded when trying to connect|^timeout expired$|driver has already been destroyed|Cannot use a pool after calling end|is not queryable|The database connection is not open/i.test(msg);
  }
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || PG_UNAVAILABLE.has(code) || NET.has(code);
}

/** The database did not answer when opened: which one, and why in the driver's words (pg's "timeout expired" said in full). */
export class DatabaseUnavailable extends Error {
  constructor(message: string, options: { cause?: Error; code?: string } = {}) {
    super(message, { cause: options.cause });
    (this as { code?: string }).code = options.code ?? (options.cause as { code?: string } | undefined)?.code;
  }

  /** `location` (e.g. `PostgreSQL db on host`) did not answer when opened, for the reason `cause` gives. */
  static at(location: string, cause: Error, connectMs: number): DatabaseUnavailable {
    const why = /^timeout expired$/i.test(cause.message) ? `no connection within ${connectMs / 1000} s (connect_timeout)` : cause.message;
    return new DatabaseUnavailable(`${location} does not answer: ${why}`, { cause });
  }
}

/** True when a statement named a table the database does not have (PostgreSQL 42P01, SQLite's "no such table"). */
export function isUndefinedTable(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  return err?.code === '42P01' || (typeof err?.message === 'string' && /^no such table: /.test(err.message));
}

/** True for a unique-constraint violation on either dialect. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True for a foreign-key violation on either dialect (a parent deleted while a child was written). */
export function isForeignKeyViolation(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * The constraint a violation names (PostgreSQL: its name; SQLite: the columns in its message,
 * e.g. `watches.managed_key`), or undefined when e is no unique or foreign-key violation.
 */
export function violatedConstraint(e: unknown): string | undefined {
  if (!isUniqueViolation(e) && !isForeignKeyViolation(e)) return undefined;
  const { constraint, message } = e as { constraint?: unknown; message?: unknown };
  if (typeof constraint === 'string' && constraint) return constraint;
  const m = typeof message === 'string' ? /constraint failed: (.+)$/i.exec(message) : null;
  return m?.[1] ?? (isForeignKeyViolation(e) ? 'a reference to a row that no longer exists' : 'a uniqueness rule');
}
