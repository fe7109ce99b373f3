/**
 * Stored idempotency records, one per (workspace, Idempotency-Key). A request claims its key
 * by inserting the row inside the transaction that performs the mutation, so of several
 * concurrent requests exactly one mutates; the others wait for it and then see its record.
 */
import { type Kysely, sql } from 'kysely';
import { type Db, sqliteHandle } from './index.js';
import type { Database } from './schema.js';

export interface IdempotencyRecord {
  fingerprint: string;
  /** null while the first request is still in progress. */
  status: number | null;
  response: string | null;
  created_ms: number;
}

export type Claim = { claimed: true } | { claimed: false; existing: IdempotencyRecord };

/** Claims a key (or takes over one older than `ttlMs`), or returns the record holding it. */
export async function claimIdempotencyKey(
  trx: Kysely<Database>,
  workspaceId: string,
  idemKey: string,
  fingerprint: string,
  nowMs: number,
  ttlMs: number,
): Promise<Claim> {
  const prepare = sqliteHandle(trx);
  if (prepare) {
    // Hot path on SQLite (inside the group commit): the same statements, prepared once.
    const won = prepare(CLAIM_SQLITE).all(workspaceId, idemKey, fingerprint, nowMs, nowMs - ttlMs);
    if (won.length > 0) return { claimed: true };
    const existing = prepare(EXISTING_SQLITE).all(workspaceId, idemKey)[0] as IdempotencyRecord | undefined;
    if (!existing) throw new Error('idempotency record vanished');
    return { claimed: false, existing };
  }
  const claimed = await sql<{ idem_key: string }>`
    insert into idempotency_keys (workspace_id, idem_key, fingerprint, status, response, created_ms)
    values (${workspaceId}, ${idemKey}, ${fingerprint}, null, null, ${nowMs})
    on conflict (workspace_id, idem_key) do update
      set fingerprint = excluded.fingerprint, status = null, response = null, created_ms = excluded.created_ms
      where idempotency_keys.created_ms < ${nowMs - ttlMs}
    returning idem_key`.execute(trx);
  if (claimed.rows.length > 0) return { claimed: true };
  const existing = await trx
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status', 'response', 'created_ms'])
    .where('workspace_id', '=', workspaceId)
    .where('idem_key', '=', idemKey)
    .executeTakeFirstOrThrow();
  return { claimed: false, existing };
}

const CLAIM_SQLITE = `insert into idempotency_keys (workspace_id, idem_key, fingerprint, status, response, created_ms)
  values (?, ?, ?, null, null, ?)
  on conflict (workspace_id, idem_key) do update
    set fingerprint = excluded.fingerprint, status = null, response = null, created_ms = excluded.created_ms
    where idempotency_keys.created_ms < ?
  returning idem_key`;
const EXISTING_SQLITE = 'select fingerprint, status, response, created_ms from idempotency_keys where workspace_id = ? and idem_key = ?';
const COMPLETE_SQLITE = 'update idempotency_keys set status = ?, response = ? where workspace_id = ? and idem_key = ?';

export async function completeIdempotencyKey(
  trx: Kysely<Database>,
  workspaceId: string,
  idemKey: string,
  status: number,
  response: string,
): Promise<void> {
  const prepare = sqliteHandle(trx);
  if (prepare) {
    prepare(COMPLETE_SQLITE).run(status, response, workspaceId, idemKey);
    return;
  }
  await sql`update idempotency_keys set status = ${status}, response = ${response}
    where workspace_id = ${workspaceId} and idem_key = ${idemKey}`.execute(trx);
}

/** Forgets records older than the cutoff. */
export async function pruneIdempotencyKeys(db: Db, olderThanMs: number): Promise<void> {
  await db.kysely.deleteFrom('idempotency_keys').where('created_ms', '<', olderThanMs).execute();
}
