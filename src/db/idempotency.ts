/**
 * Stored idempotency records, one per (workspace, Idempotency-Key). A request claims its key
 * by inserting the row inside the transaction that performs the mutation, so of several
 * concurrent requests exactly one mutates; the others wait for it and then see its record.
 */
import type { Kysely } from 'kysely';
import type { Db } from './index.js';
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
  const r = await trx
    .insertInto('idempotency_keys')
    .values({ workspace_id: workspaceId, idem_key: idemKey, fingerprint, status: null, response: null, created_ms: nowMs })
    .onConflict((oc) =>
      oc
        .columns(['workspace_id', 'idem_key'])
        .doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          status: null,
          response: null,
          created_ms: eb.ref('excluded.created_ms'),
        }))
        .where('idempotency_keys.created_ms', '<', nowMs - ttlMs),
    )
    .executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows ?? 0) > 0) return { claimed: true };
  const existing = await trx
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status', 'response', 'created_ms'])
    .where('workspace_id', '=', workspaceId)
    .where('idem_key', '=', idemKey)
    .executeTakeFirstOrThrow();
  return { claimed: false, existing };
}

export async function completeIdempotencyKey(
  trx: Kysely<Database>,
  workspaceId: string,
  idemKey: string,
  status: number,
  response: string,
): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ status, response })
    .where('workspace_id', '=', workspaceId)
    .where('idem_key', '=', idemKey)
    .execute();
}

/** Forgets records older than the cutoff. */
export async function pruneIdempotencyKeys(db: Db, olderThanMs: number): Promise<void> {
  await db.kysely.deleteFrom('idempotency_keys').where('created_ms', '<', olderThanMs).execute();
}
