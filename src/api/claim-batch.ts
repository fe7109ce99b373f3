/**
 * PostgreSQL: the planned writes of concurrent requests in one process, sent as one statement
 * and so one commit (an application-level group commit). A request's claim of its
 * Idempotency-Key and its writes are the same data-modifying CTEs claimIdempotencyKeyWith sends
 * for it alone, named apart (`claim_3`, `write_3_0` …), each write made only when its own
 * request's claim was: a request whose key is held writes nothing, the others in the statement
 * are not affected. The statement runs in autocommit, all or nothing: a request is answered
 * only after it committed (durably, as every write).
 *
 * When a statement of several requests fails (an error of one request's values, a deadlock with
 * another process), nothing of it was written and each of its requests is sent again on its own:
 * one request's failure never fails another's.
 *
 * Grouping adds no wait: a request is sent at once while fewer than `inFlight` statements are
 * running; the requests that arrive meanwhile go together in the next one, at most `maxBatch`.
 * Two requests that share a serial key (the same workspace and Idempotency-Key, or one the plan
 * names) are never in flight together from this process, so the writes of one statement never
 * touch the same row twice and never wait for each other.
 */
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { prepared, type Statement, type When } from '../db/prepared.js';
import { type Answer, type Claim, claimIdempotencyKeyWith, claimStatement, idempotencyRecord } from './idempotency-store.js';

export interface ClaimRequest {
  workspaceId: string;
  idemKey: string;
  fingerprint: string;
  nowMs: number;
  ttlMs: number;
  answer: Answer;
  writes: (when: When) => Statement[];
  /** Besides the workspace and key: requests naming one of these are sent in different statements, one after the other. */
  serial?: readonly string[];
}

export interface ClaimBatcherOptions {
  /** Statements of this batcher running at once (each holds a pool connection while it runs). */
  inFlight: number;
  /** Requests one statement carries at most. */
  maxBatch: number;
}

interface Pending {
  r: ClaimRequest;
  /** How many writes the request makes: a statement carries requests of one such shape. */
  shape: number;
  keys: string[];
  resolve: (c: Claim) => void;
  reject: (e: unknown) => void;
}

/** A function that claims a key and makes its writes, as claimIdempotencyKeyWith, grouping concurrent calls. */
export function claimBatcher(q: Kysely<Database>, o: ClaimBatcherOptions): (r: ClaimRequest) => Promise<Claim> {
  const queue: Pending[] = [];
  /** Serial keys of the requests in flight. */
  const busy = new Set<string>();
  let running = 0;

  const alone = (r: ClaimRequest) => claimIdempotencyKeyWith(q, r.workspaceId, r.idemKey, r.fingerprint, r.nowMs, r.ttlMs, r.answer, r.writes);

  /**
   * Takes from the queue, in order, requests of the first free request's shape whose serial keys
   * are free: a power of two of them, at most maxBatch. So a process sends few statement texts
   * (shapes × sizes), each of which a connection has PostgreSQL plan once and then keeps
   * (planning a statement of many requests costs more than running it).
   */
  const take = (): Pending[] => {
    const free = (p: Pending) => p.keys.every((k) => !busy.has(k));
    const first = queue.find(free);
    if (!first) return [];
    const fits: Pending[] = [];
    for (const p of queue) if (fits.length < o.maxBatch && p.shape === first.shape && free(p) && !p.keys.some((k) => fits.some((f) => f.keys.includes(k)))) fits.push(p);
    const batch = fits.slice(0, 2 ** Math.floor(Math.log2(fits.length)));
    for (const p of batch) for (const k of p.keys) busy.add(k);
    const taken = new Set(batch);
    const kept = queue.filter((p) => !taken.has(p));
    queue.length = 0;
    queue.push(...kept);
    return batch;
  };

  const settle = async (p: Pending, claim: Promise<Claim>) => {
    try {
      p.resolve(await claim);
    } catch (e) {
      p.reject(e);
    }
  };

  const send = async (batch: Pending[]): Promise<void> => {
    if (batch.length === 1) return settle(batch[0]!, alone(batch[0]!.r));
    let claimed: Set<number>;
    try {
      claimed = await together(q, batch.map((p) => p.r));
    } catch {
      // Nothing of the statement was written: each request again, on its own.
      await Promise.all(batch.map((p) => settle(p, alone(p.r))));
      return;
    }
    await Promise.all(
      batch.map((p, i) =>
        settle(p, claimed.has(i) ? Promise.resolve({ claimed: true }) : idempotencyRecord(q, p.r.workspaceId, p.r.idemKey).then((existing) => ({ claimed: false, existing }))),
      ),
    );
  };

  const pump = () => {
    while (running < o.inFlight && queue.length > 0) {
      const batch = take();
      if (batch.length === 0) return;
      running++;
      void send(batch).finally(() => {
        for (const p of batch) for (const k of p.keys) busy.delete(k);
        running--;
        pump();
      });
    }
  };

  return (r) =>
    new Promise<Claim>((resolve, reject) => {
      queue.push({ r, shape: r.writes(sql<SqlBool>`true`).length, keys: [`${r.workspaceId}\n${r.idemKey}`, ...(r.serial ?? [])], resolve, reject });
      pump();
    });
}

/** The requests' claims and writes as one statement; resolves to the indexes of the requests that claimed their key. */
async function together(q: Kysely<Database>, rs: readonly ClaimRequest[]): Promise<Set<number>> {
  const ctes = [];
  const answers = [];
  for (let slot = 0; slot < rs.length; slot++) {
    const r = rs[slot]!;
    const claim = sql.id(`claim_${slot}`);
    ctes.push(sql`${claim} as (${claimStatement(r.workspaceId, r.idemKey, r.fingerprint, r.nowMs, r.ttlMs, r.answer)})`);
    r.writes(sql<SqlBool>`exists (select 1 from ${claim})`).forEach((w, j) => ctes.push(sql`${sql.id(`write_${slot}_${j}`)} as (${w})`));
    answers.push(sql`select ${sql.lit(slot)} as slot from ${claim}`);
  }
  const rows = await prepared(q, sql<{ slot: number }>`with ${sql.join(ctes)} ${sql.join(answers, sql` union all `)}`);
  return new Set(rows.map((row) => row.slot));
}
