/**
 * Rate limits per key per minute by call kind (read 120, write 20, report 5): a fixed
 * one-minute window counted in the database, so every api process shares the counters.
 * Headers per draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "read";q=120;w=60`
 * and `RateLimit: "read";r=<remaining>;t=<seconds to reset>`; 429 adds `Retry-After`.
 */
import type { Db } from '../db/index.js';
import { hitRateCounter, pruneRateCounters } from '../db/rate-counters.js';
import { ApiProblem } from './problems.js';
import type { CallKind } from './route-def.js';

export const WINDOW_MS = 60_000;
export const DEFAULT_LIMITS: Readonly<Record<CallKind, number>> = { read: 120, write: 20, report: 5 };

export interface RateDecision {
  headers: Record<string, string>;
}

export interface RateLimiter {
  /**
   * Counts the call; throws a 429 problem when over the limit. Resolves to headers for the
   * response. With touchAt, records the key's last use in the same write.
   */
  hit(apiKeyId: string, kind: CallKind, touchAt?: Date): Promise<RateDecision>;
}

export function rateLimiter(db: Db, now: () => Date, limits: Readonly<Record<CallKind, number>> = DEFAULT_LIMITS): RateLimiter {
  let nextPrune = 0;
  return {
    async hit(apiKeyId, kind, touchAt) {
      const nowMs = now().getTime();
      const windowMs = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      if (nowMs >= nextPrune) {
        nextPrune = windowMs + WINDOW_MS;
        await pruneRateCounters(db.kysely, windowMs - WINDOW_MS);
      }
      const limit = limits[kind];
      const count = await db.autocommit((q) => hitRateCounter(q, apiKeyId, kind, windowMs, touchAt));
      const reset = Math.max(1, Math.ceil((windowMs + WINDOW_MS - nowMs) / 1000));
      const headers = {
        'ratelimit-policy': `"${kind}";q=${limit};w=${WINDOW_MS / 1000}`,
        ratelimit: `"${kind}";r=${Math.max(0, limit - count)};t=${reset}`,
      };
      if (count > limit) {
        throw new ApiProblem(
          'rate-limited',
          `This key may make ${limit} ${kind} calls per minute; wait ${reset} seconds.`,
          { ...headers, 'retry-after': String(reset) },
          { retry_after: reset },
        );
      }
      return { headers };
    },
  };
}
