/**
 * Rate limits per key per minute by call kind (read 120, write 20, report 5): a fixed
 * one-minute window counted in the database, so every api process shares the counters.
 * Headers per draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "read";q=120;w=60`
 * and `RateLimit: "read";r=<remaining>;t=<seconds to reset>`; 429 adds `Retry-After`.
 *
 * A call far below its limit is not kept waiting for the database: it is counted in memory and
 * its count written behind it (one write for every call counted meanwhile), while the count
 * it is judged by is the database's last answer plus this process's calls since. The first call
 * of a window in a process, and every call from half the limit on, waits for its count to be
 * written and is judged by the database's answer (less this process's calls counted after it),
 * so one process holds the limit exactly; processes sharing a database learn each other's calls
 * with each write. Why: on SQLite every write takes the one write lock, and a read that waited
 * for it would wait behind a re-ranking's writes.
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
  /** the window's count in the database as the last write answered, and the last call of this process it covered */
  stored: number;
  storedUpTo: number;
  /** whether a write answered yet (until then this process knows nothing of the others' calls) */
  known: boolean;
  /** calls this process counted in the window (each call's sequence number) */
  seq: number;
  /** calls counted here and not yet written, and calls being written */
  unwritten: number;
  writing: number;
  touchAt?: Date;
  /** the last write queued; its answer covers every call counted before it ran */
  written?: Promise<void>;
}

export function rateLimiter(db: Db, now: () => Date, limits: Readonly<Record<CallKind, number>> = DEFAULT_LIMITS): RateLimiter {
  let currentWindow = 0;
  const counters = new Map<string, Counter>();

  /** Writes a counter's unwritten calls, after any write of it still running. */
  const write = (c: Counter): Promise<void> => {
    const written = (c.written ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        const calls = c.unwritten;
        const touchAt = c.touchAt;
        if (calls === 0 && touchAt === undefined) return;
        const upTo = c.seq;
        c.unwritten = 0;
        c.writing = calls;
        c.touchAt = undefined;
        try {
          c.stored = await db.autocommit((q) => hitRateCounter(q, c.apiKeyId, c.kind, c.windowMs, touchAt, calls));
          c.storedUpTo = upTo;
          c.known = true;
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
    const settled = () => {
      if (c.written === written) c.written = undefined;
    };
    written.then(settled, settled);
    return written;
  };

  return {
    async hit(apiKeyId, kind, touchAt) {
      const nowMs = now().getTime();
      const windowMs = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      if (windowMs !== currentWindow) {
        currentWindow = windowMs;
        // Past windows are forgotten; a count not yet written is written once more (best effort).
        for (const [id, c] of counters) {
          if (c.windowMs >= windowMs) continue;
          counters.delete(id);
          if (c.unwritten > 0 && !c.written) write(c).catch(() => undefined);
        }
        // Behind the call too: nothing waits for old windows to go.
        void pruneRateCounters(db.kysely, windowMs - WINDOW_MS).catch(() => undefined);
      }
      const limit = limits[kind];
      const id = `${apiKeyId}\n${kind}\n${windowMs}`;
      let c = counters.get(id);
      if (!c) counters.set(id, (c = { apiKeyId, kind, windowMs, stored: 0, storedUpTo: 0, known: false, seq: 0, unwritten: 0, writing: 0 }));
      const seq = ++c.seq;
      c.unwritten += 1;
      if (touchAt) c.touchAt = touchAt;
      const estimate = c.stored + c.writing + c.unwritten;
      const pending = write(c);
      let count = estimate;
      if (!c.known || estimate > limit / 2) {
        await pending;
        // The database's count after the write that took this call, less this process's calls after it.
        count = c.stored - (c.storedUpTo - seq);
      } else {
        // A failed write behind a call is the next call's to retry (it writes this count again).
        pending.catch(() => undefined);
      }
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
