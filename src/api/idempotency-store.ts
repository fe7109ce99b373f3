/**
 * Stored idempotency records, one per (workspace, Idempotency-Key). A request claims its key
 * by inserting the row inside the transaction that performs the mutation (or, for a planned
 * write on PostgreSQL, in the one statement that performs it), so of several concurrent
 * requests exactly one mutates; the others wait for it and then see its record.
 */
import { type Kysely, type SqlBool, sql } from 'kysely';
import { prepared, type Statement, type When } from '../db/prepared.js';
import type { Database } from '../db/database.js';

export interface IdempotencyRecord {
  fingerprint: string;
  /** null while the first request is still in progress. */
  status: number | null;
  response: string | null;
  created_ms: number;
}

export type Claim = { claimed: true } | { claimed: false; existing: IdempotencyRecord };

/** A request's answer as its record keeps it: the status and the stored JSON. */
export interface Answer {
  status: number;
  response: string;
}

/**
 * The statement that claims a key (or takes over one older than `ttlMs`), answering a row when
 * it did: the record is in progress until completeIdempotencyKey, or already holds `answer`.
 */
function claimStatement(workspaceId: string, idemKey: string, fingerprint: string, nowMs: number, ttlMs: number, answer: Answer | undefined) {
  const status = answer?.status ?? null;
  const response = answer?.response ?? null;
  return sql<{ idem_key: string }>`insert into idempotency_keys (workspace_id, idem_key, fingerprint, status, response, created_ms)
      values (${workspaceId}, ${idemKey}, ${fingerprint}, ${status}, ${response}, ${nowMs})
      on conflict (workspace_id, idem_key) do update
        set fingerprint = excluded.fingerprint, status = excluded.status, response = excluded.response, created_ms = excluded.created_ms
        where idempotency_keys.created_ms < ${nowMs - ttlMs}
      returning idem_key`;
}

/** Claims a key (or takes over one older than `ttlMs`), or returns the record holding it. Hot path. */
export async function claimIdempotencyKey(
  trx: Kysely<Database>,
  workspaceId: string,
  idemKey: string,
  fingerprint: string,
  nowMs: number,
  ttlMs: number,
  answer?: Answer,
): Promise<Claim> {
  const won = await prepared(trx, claimStatement(workspaceId, idemKey, fingerprint, nowMs, ttlMs, answer));
  return won.length > 0 ? { claimed: true } : { claimed: false, existing: await idempotencyRecord(trx, workspaceId, idemKey) };
}

/**
 * PostgreSQL: claims a key with its answer and makes `writes` when it did, as one statement (data-
 * modifying CTEs, one round trip), sent in autocommit: it commits on its own, all or nothing. A
 * request holding the key in an open transaction makes it wait, then find the key held. The
 * writes see the database as it was before the statement, never each other's effects.
 */
export async function claimIdempotencyKeyWith(
  q: Kysely<Database>,
  workspaceId: string,
  idemKey: string,
  fingerprint: string,
  nowMs: number,
  ttlMs: number,
  answer: Answer,
  writes: (when: When) => Statement[],
): Promise<Claim> {
  const made = writes(sql<SqlBool>`exists (select 1 from claim)`).map((w, i) => sql`, ${sql.id(`write_${i}`)} as (${w})`);
  const [row] = await prepared(
    q,
    sql<{ claimed: number }>`with claim as (${claimStatement(workspaceId, idemKey, fingerprint, nowMs, ttlMs, answer)})${sql.join(made, sql``)}
      select count(*) as claimed from claim`,
  );
  return row!.claimed > 0 ? { claimed: true } : { claimed: false, existing: await idempotencyRecord(q, workspaceId, idemKey) };
}

async function idempotencyRecord(q: Kysely<Database>, workspaceId: string, idemKey: string): Promise<IdempotencyRecord> {
  const [existing] = await prepared(
    q,
    sql<IdempotencyRecord>`select fingerprint, status, response, created_ms from idempotency_keys
      where workspace_id = ${workspaceId} and idem_key = ${idemKey}`,
  );
  if (!existing) throw new Error('idempotency record vanished');
  return existing;
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

/** Whether a record holds the key, made at or after `sinceMs` (its replay window not ended). */
export async function liveIdempotencyKey(q: Kysely<Database>, workspaceId: string, idemKey: string, sinceMs: number): Promise<boolean> {
  const rows = await prepared(q, sql`select 1 as live from idempotency_keys where workspace_id = ${workspaceId} and idem_key = ${idemKey} and created_ms >= ${sinceMs}`);
  return rows.length > 0;
}

/** Forgets records older than the cutoff. */
export async function pruneIdempotencyKeys(q: Kysely<Database>, olderThanMs: number): Promise<void> {
  await q.deleteFrom('idempotency_keys').where('created_ms', '<', olderThanMs).execute();
}
