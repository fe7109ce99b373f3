/**
 * Rate limits per key per minute by call kind (read 120, write 20, report 5): a fixed
 * one-minute window counted in the database, so every api process shares the counters.
 * Headers per draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "read";q=120;w=60`
 * and `RateLimit: "read";r=<remaining>;t=<seconds to reset>`; 429 adds `Retry-After`.
 *
 * The database counts admitted calls only. A call far below its limit is not kept waiting for
 * the database: it is admitted on this process's estimate (the database's last answer plus this
 * process's calls since) and counted by a write behind it (one write for every call counted
 * meanwhile). The first call of a window in a process, and every call from half the limit on,
 * asks the database: its write admits, in order, only the calls that fit below the limit. So a
 * call is refused only when the limit's worth of calls really were admitted (never before the
 * limit), one process holds the limit exactly, and P processes sharing a database can pass it
 * only by the calls the other P − 1 admitted on their estimates: at most (P − 1) × limit / 2.
 * Why estimates at all: on SQLite every write takes the one write lock, and a read that waited
 * for it would wait behind a re-ranking's writes.
 */
import type { Db } from '../compose/database.js';
import { hitRateCounter, pruneRateCounters } from './rate-counters.js';
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
  /** the window's admitted calls in the database as the last write answered */
  stored: number;
  /** whether a write answered yet (until then this process knows nothing of the others' calls) */
  known: boolean;
  /** calls answered without waiting and not yet written */
  admitted: number;
  /** calls waiting for the next write to judge them, in arrival order */
  asking: Array<{ resolve: (place: number | undefined) => void; reject: (e: unknown) => void }>;
  /** calls in the write running now */
  writing: number;
  touchAt?: Date;
  /** the last write queued; its answer covers every call counted before it ran */
  written?: Promise<void>;
}

export function rateLimiter(db: Db, now: () => Date, limits: Readonly<Record<CallKind, number>> = DEFAULT_LIMITS): RateLimiter {
  let currentWindow = 0;
  const counters = new Map<string, Counter>();

  /** Writes a counter's calls not yet written, after any write of it still running. */
  const write = (c: Counter, limit: number): Promise<void> => {
    const written = (c.written ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        const admitted = c.admitted;
        const asking = c.asking.splice(0);
        const touchAt = c.touchAt;
        if (admitted === 0 && asking.length === 0 && touchAt === undefined) return;
        c.admitted = 0;
        c.writing = admitted + asking.length;
        c.touchAt = undefined;
        try {
          const r = await db.autocommit((q) => hitRateCounter(q, c.apiKeyId, c.kind, c.windowMs, { admitted, asking: asking.length, limit }, touchAt));
          c.stored = r.count;
          c.known = true;
          // The first (count - prev - admitted) asking calls got in, in order.
          const placed = r.count - r.prev - admitted;
          asking.forEach((a, i) => a.resolve(i < placed ? r.prev + admitted + i + 1 : undefined));
        } catch (e) {
          // Admitted calls are counted again by the next write; asking ones fail with the write.
          c.admitted += admitted;
          c.touchAt ??= touchAt;
          for (const a of asking) a.reject(e);
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
      const limit = limits[kind];
      if (windowMs !== currentWindow) {
        currentWindow = windowMs;
        // Past windows are forgotten; calls admitted and not yet written are written once more (best effort).
        for (const [id, c] of counters) {
          if (c.windowMs >= windowMs) continue;
          counters.delete(id);
          if (c.admitted > 0 && !c.written) write(c, limits[c.kind]).catch(() => undefined);
        }
        // Behind the call too: nothing waits for old windows to go.
        void pruneRateCounters(db.kysely, windowMs - WINDOW_MS).catch(() => undefined);
      }
      const id = `${apiKeyId}\n${kind}\n${windowMs}`;
      let c = counters.get(id);
      if (!c) counters.set(id, (c = { apiKeyId, kind, windowMs, stored: 0, known: false, admitted: 0, asking: [], writing: 0 }));
      if (touchAt) c.touchAt = touchAt;
      const estimate = c.stored + c.writing + c.admitted + c.asking.length + 1;
      let count: number | undefined;
      if (c.known && estimate <= limit / 2) {
        // Far below the limit: answered now, counted by the write behind it.
        c.admitted += 1;
        count = estimate;
        // A failed write behind a call is the next call's to retry (it writes this count again).
        write(c, limit).catch(() => undefined);
      } else {
        // Judged by the database: admitted only while the stored count of admitted calls is below the limit.
        const place = new Promise<number | undefined>((resolve, reject) => c.asking.push({ resolve, reject }));
        write(c, limit).catch(() => undefined);
        count = await place;
      }
      const reset = Math.max(1, Math.ceil((windowMs + WINDOW_MS - nowMs) / 1000));
      const headers = {
        'ratelimit-policy': `"${kind}";q=${limit};w=${WINDOW_MS / 1000}`,
        ratelimit: `"${kind}";r=${Math.max(0, limit - (count ?? limit))};t=${reset}`,
      };
      if (count === undefined) {
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
