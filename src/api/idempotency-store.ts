/**
 * Stored idempotency records, one per (workspace, Idempotency-Key). A request claims its key
 * by inserting the row inside the transaction that performs the mutation, so of several
 * concurrent requests exactly one mutates; the others wait for it and then see its record.
 */
import { type Kysely, sql } from 'kysely';
import { prepared } from '../db/prepared.js';
import type { Database } from '../db/database.js';

export interface IdempotencyRecord {
  fingerprint: string;
  /** null while the first request is still in progress. */
  status: number | null;
  response: string | null;
  created_ms: number;
}

export type Claim = { claimed: true } | { claimed: false; existing: IdempotencyRecord };

/** Claims a key (or takes over one older than `ttlMs`), or returns the record holding it. Hot path. */
export async function claimIdempotencyKey(
  trx: Kysely<Database>,
  workspaceId: string,
  idemKey: string,
  fingerprint: string,
  nowMs: number,
  ttlMs: number,
): Promise<Claim> {
  const won = await prepared(
    trx,
    sql<{ idem_key: string }>`insert into idempotency_keys (workspace_id, idem_key, fingerprint, status, response, created_ms)
      values (${workspaceId}, ${idemKey}, ${fingerprint}, null, null, ${nowMs})
      on conflict (workspace_id, idem_key) do update
        set fingerprint = excluded.fingerprint, status = null, response = null, created_ms = excluded.created_ms
        where idempotency_keys.created_ms < ${nowMs - ttlMs}
      returning idem_key`,
  );
  if (won.length > 0) return { claimed: true };
  const [existing] = await prepared(
    trx,
    sql<IdempotencyRecord>`select fingerprint, status, response, created_ms from idempotency_keys
      where workspace_id = ${workspaceId} and idem_key = ${idemKey}`,
  );
  if (!existing) throw new Error('idempotency record vanished');
  return { claimed: false, existing };
}

export async function completeIdempotencyKey(
  trx: Kysely<Database>,
  workspaceId: string,
  idemKey: string,
  status: number,
  response: string,
): Promise<void> {
  await prepared(
    trx,
    sql`update idempotency_keys set status = ${status}, response = ${response} where workspace_id = ${workspaceId} and idem_key = ${idemKey}`,
  );
}

/** Forgets records older than the cutoff. */
export async function pruneIdempotencyKeys(q: Kysely<Database>, olderThanMs: number): Promise<void> {
  await q.deleteFrom('idempotency_keys').where('created_ms', '<', olderThanMs).execute();
}
