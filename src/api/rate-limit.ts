/**
 * Rate limits per key per minute by call kind (read 120, write 20, report 5): a fixed
 * one-minute window counted in the database, so every api process shares the counters.
 * Headers per draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "read";q=120;w=60`
 * and `RateLimit: "read";r=<remaining>;t=<seconds to reset>`; 429 adds `Retry-After`.
 *
 * A call far below its limit is not kept waiting for the database: it is counted in memory and
 * its count written behind it (one write for every call counted meanwhile), while the count
 * it is judged by is the database's last answer plus the calls since. From half the limit on,
 * a call waits for its count to be written and is judged by the database's answer, so the limit
 * holds exactly, across processes too. Why: on SQLite every write takes the one write lock, and
 * a read that waited for it would wait behind a re-ranking's writes.
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

/** One key's calls of one kind in one window, as this process knows them. */
interface Counter {
  apiKeyId: string;
  kind: CallKind;
  windowMs: number;
  /** the window's count in the database, as its last write answered */
  stored: number;
  /** calls counted here and not yet written */
  unwritten: number;
  /** calls being written */
  writing: number;
  touchAt?: Date;
  /** settles with the stored count once the calls counted so far are written */
  written?: Promise<number>;
}

export function rateLimiter(db: Db, now: () => Date, limits: Readonly<Record<CallKind, number>> = DEFAULT_LIMITS): RateLimiter {
  let currentWindow = 0;
  const counters = new Map<string, Counter>();

  /** Writes a counter's unwritten calls (after any write of it still running); resolves to the stored count. */
  const write = (c: Counter): Promise<number> => {
    const before = c.written ?? Promise.resolve(0);
    const written = before.catch(() => 0).then(async () => {
      const calls = c.unwritten;
      const touchAt = c.touchAt;
      if (calls === 0 && touchAt === undefined) return c.stored;
      c.unwritten = 0;
      c.writing = calls;
      c.touchAt = undefined;
      try {
        c.stored = await db.autocommit((q) => hitRateCounter(q, c.apiKeyId, c.kind, c.windowMs, touchAt, calls));
        return c.stored;
      } catch (e) {
        // Counted again by the next write.
        c.unwritten += calls;
        c.touchAt ??= touchAt;
        throw e;
      } finally {
        c.writing = 0;
      }
    });
    c.written = written;
    void written.then(
      () => (c.written === written ? (c.written = undefined) : undefined),
      () => (c.written === written ? (c.written = undefined) : undefined),
    );
    return written;
  };

  return {
    async hit(apiKeyId, kind, touchAt) {
      const nowMs = now().getTime();
      const windowMs = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      if (windowMs !== currentWindow) {
        currentWindow = windowMs;
        for (const [id, c] of counters) if (c.windowMs < windowMs && c.unwritten === 0 && !c.written) counters.delete(id);
        // Behind the call too: nothing waits for old windows to go.
        void pruneRateCounters(db.kysely, windowMs - WINDOW_MS).catch(() => undefined);
      }
      const limit = limits[kind];
      const id = `${apiKeyId}\n${kind}\n${windowMs}`;
      let c = counters.get(id);
      if (!c) counters.set(id, (c = { apiKeyId, kind, windowMs, stored: 0, unwritten: 0, writing: 0 }));
      c.unwritten += 1;
      if (touchAt) c.touchAt = touchAt;
      const estimate = c.stored + c.writing + c.unwritten;
      const pending = write(c);
      let count = estimate;
      if (estimate > limit / 2) count = await pending;
      // A failed write behind a call is the next call's to retry (it writes this count again).
      else pending.catch(() => undefined);
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
