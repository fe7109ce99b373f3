/**
 * Idempotency of mutating calls, scoped to (workspace, Idempotency-Key) and kept 24 hours.
 * Fingerprint = method + route template + path params + sha256 of the canonical JSON body.
 * Only calls that passed auth, scope, limits and validation get here and are stored.
 */
import { hash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import { type Claim, claimIdempotencyKey, claimIdempotencyKeyWith, completeIdempotencyKey, liveIdempotencyKey, pruneIdempotencyKeys } from './idempotency-store.js';
import { runStatements } from '../db/prepared.js';
import type { Database } from '../db/database.js';
import { ApiProblem, isApiProblem } from './problems.js';
import { canonicalJson } from '../core/canonical-json.js';
import type { OperationResult, WritePlan } from './route-def.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX = 255;

/**
 * What a request asks, as one hash: method, operation, path parameters, body, and the If-Match
 * condition when there is one (a retry with another version is another request: it answers 422,
 * not the first one's 409), given in one form (schemas.ts ifMatchCondition: `3` and `"3"` are one
 * condition, `*` is none). Without If-Match the hash is the one made before the condition counted,
 * so keys stored then still replay.
 */
export function fingerprint(method: string, template: string, params: Record<string, string>, body: unknown, ifMatch?: string | string[]): string {
  const bodyHash = body === undefined ? '-' : hash('sha256', canonicalJson(body), 'hex');
  const condition = ifMatch === undefined ? '' : `\nif-match ${canonicalJson(ifMatch)}`;
  return hash('sha256', `${method}\n${template}\n${canonicalJson(params)}\n${bodyHash}${condition}`, 'hex');
}

/** The Idempotency-Key header, or a 400 problem when missing, empty, repeated or over 255 characters. */
export function idempotencyKeyOf(header: string | string[] | undefined): string {
  if (Array.isArray(header)) throw new ApiProblem('idempotency-key-required', 'Send exactly one Idempotency-Key header.');
  if (header === undefined || header.trim() === '') {
    throw new ApiProblem('idempotency-key-required', 'This operation needs an Idempotency-Key header: a stable logical request ID.');
  }
  if (header.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiProblem('idempotency-key-required', `The Idempotency-Key header must be at most ${IDEMPOTENCY_KEY_MAX} characters.`);
  }
  return header;
}

export interface IdempotentResult {
  status: number;
  body: unknown;
  problem?: boolean;
  /** A problem's own headers (e.g. Retry-After). */
  headers?: Record<string, string>;
  replayed: boolean;
}

interface Stored {
  body: unknown;
  problem?: boolean;
  headers?: Record<string, string>;
}

export interface IdempotencyRunner {
  /**
   * Runs mutate once per (workspace, key) and stores its result; the same key and input later
   * replays it. An ApiProblem (4xx) mutate throws undoes its writes and is stored and answered
   * like a success, so a replay answers the same problem — unless `forgetProblems` (a key derived
   * from the call rather than chosen by its caller): then the problem is thrown and nothing is
   * kept, so the identical call made again, once its cause is gone, runs.
   */
  run(workspaceId: string, key: string, fp: string, mutate: (trx: Kysely<Database>) => Promise<OperationResult>, forgetProblems?: boolean): Promise<IdempotentResult>;
  /**
   * The same for a planned write (RouteDef.plan): plan runs before the key is claimed, and its
   * writes are made only by the request that claims it, with its answer stored in the claim.
   */
  runPlanned(workspaceId: string, key: string, fp: string, plan: () => Promise<WritePlan>, forgetProblems?: boolean): Promise<IdempotentResult>;
  /**
   * The key a request whose key was derived from the call (not chosen by its caller) is kept
   * under: `<derived>.<n>`, n the number of the 24-hour period now falls in, or the previous
   * period's key while its record is live (a call within 24 hours of it replays it). So a derived
   * key is never used again once its replay window ended: an identical call made later is new,
   * and nothing else keyed by the request (the wallet's ledger cause) has seen its key before.
   */
  windowKey(workspaceId: string, derived: string): Promise<string>;
}

export function idempotencyRunner(db: Db, now: () => Date): IdempotencyRunner {
  let nextPrune = 0;
  /** The time of this request, pruning the records past their time once an hour. */
  const started = async (): Promise<number> => {
    const nowMs = now().getTime();
    if (nowMs >= nextPrune) {
      nextPrune = nowMs + 60 * 60 * 1000;
      await pruneIdempotencyKeys(db.kysely, nowMs - IDEMPOTENCY_TTL_MS);
    }
    return nowMs;
  };
  /** A handler's problem as the key's answer (its writes, if any, were rolled back or never made). */
  const refuse = (workspaceId: string, key: string, fp: string, nowMs: number, p: ApiProblem): Promise<IdempotentResult> => {
    const stored: Stored = { body: p.body(), problem: true, headers: Object.keys(p.headers).length ? p.headers : undefined };
    return db.write(async (trx) => {
      const held = heldBy(await claimIdempotencyKey(trx, workspaceId, key, fp, nowMs, IDEMPOTENCY_TTL_MS), fp);
      if (held) return held;
      await completeIdempotencyKey(trx, workspaceId, key, p.status, JSON.stringify(stored));
      return { status: p.status, ...stored, replayed: false };
    });
  };
  return {
    async run(workspaceId, key, fp, mutate, forgetProblems = false) {
      const nowMs = await started();
      let refused: ApiProblem | undefined;
      try {
        return await db.write(async (trx) => {
          const held = heldBy(await claimIdempotencyKey(trx, workspaceId, key, fp, nowMs, IDEMPOTENCY_TTL_MS), fp);
          if (held) return held;
          let result: OperationResult;
          try {
            result = await mutate(trx);
          } catch (e) {
            if (isApiProblem(e) && e.status < 500) refused = e;
            throw e;
          }
          const kept = result.contentType === undefined ? (result.replayBody ?? result.body) : result.body;
          await completeIdempotencyKey(trx, workspaceId, key, result.status, JSON.stringify({ body: kept, headers: result.headers } satisfies Stored));
          return { status: result.status, body: result.body, headers: result.headers, replayed: false };
        });
      } catch (e) {
        if (refused === undefined || e !== refused || forgetProblems) throw e;
        // The handler's writes and the claim were rolled back: record the problem as the key's result.
        return refuse(workspaceId, key, fp, nowMs, refused);
      }
    },
    async windowKey(workspaceId, derived) {
      const nowMs = now().getTime();
      const period = Math.floor(nowMs / IDEMPOTENCY_TTL_MS);
      const previous = `${derived}.${period - 1}`;
      return (await liveIdempotencyKey(db.kysely, workspaceId, previous, nowMs - IDEMPOTENCY_TTL_MS)) ? previous : `${derived}.${period}`;
    },
    async runPlanned(workspaceId, key, fp, plan, forgetProblems = false) {
      const nowMs = await started();
      let planned: WritePlan;
      try {
        planned = await plan();
      } catch (e) {
        if (isApiProblem(e) && e.status < 500 && !forgetProblems) return refuse(workspaceId, key, fp, nowMs, e);
        throw e;
      }
      const { result, writes } = planned;
      const answer = { status: result.status, response: JSON.stringify({ body: result.replayBody ?? result.body, headers: result.headers } satisfies Stored) };
      const made: IdempotentResult = { status: result.status, body: result.body, headers: result.headers, replayed: false };
      if (db.dialect === 'postgres') {
        return heldBy(await claimIdempotencyKeyWith(db.kysely, workspaceId, key, fp, nowMs, IDEMPOTENCY_TTL_MS, answer, writes), fp) ?? made;
      }
      return db.write(async (trx) => {
        const held = heldBy(await claimIdempotencyKey(trx, workspaceId, key, fp, nowMs, IDEMPOTENCY_TTL_MS, answer), fp);
        if (held) return held;
        await runStatements(trx, writes(undefined));
        return made;
      });
    },
  };
}

/** undefined when this request claimed the key; else the answer from the record that holds it. */
function heldBy(c: Claim, fp: string): IdempotentResult | undefined {
  if (c.claimed) return undefined;
  const ex = c.existing;
  if (ex.fingerprint !== fp) {
    throw new ApiProblem('idempotency-key-reused', 'This Idempotency-Key was used with different input; nothing was changed. Use a new key for a new request.');
  }
  if (ex.status === null || ex.response === null) {
    throw new ApiProblem('idempotency-request-in-progress', 'The first request with this Idempotency-Key is still in progress; retry shortly.', { 'retry-after': '1' });
  }
  const stored = JSON.parse(ex.response) as Stored;
  return { status: ex.status, body: stored.body, problem: stored.problem, headers: stored.headers, replayed: true };
}
