/**
 * Rate limits per key per minute by call kind (read 120, write 20, report 5): a fixed
 * one-minute window counted in the database, so every api process shares the counters.
 * Headers per draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "read";q=120;w=60`
 * and `RateLimit: "read";r=<remaining>;t=<seconds to reset>`; 429 adds `Retry-After`.
 *
 * The database counts admitted calls only. A call far below its limit is not kept waiting for
 * the database: it is admitted on this process's estimate (the database's last answer plus this
 * process's calls since) and counted by a write behind it. Writes are grouped: one at a time per
 * process, for every key and kind with calls since the last (one statement on PostgreSQL,
 * committed without waiting for the disk: see rate-counters.ts). The first call of a window in a process, and every call from half the limit on,
 * asks the database: its write admits, in order, only the calls that fit below the limit. So a
 * call is refused only when the limit's worth of calls really were admitted (never before the
 * limit), one process holds the limit exactly, and P processes sharing a database can pass it
 * only by the calls the other P − 1 admitted on their estimates: at most (P − 1) × limit / 2.
 * Why estimates at all: on SQLite every write takes the one write lock, and a read that waited
 * for it would wait behind a re-ranking's writes.
 */
import type { Db } from '../db/database.js';
import { type CounterWrite, hitRateCounters, pruneRateCounters } from './rate-counters.js';
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
}

/** PostgreSQL's deadlock_detected: two processes' writes crossed; the calls are written again. */
const DEADLOCK = '40P01';

export function rateLimiter(db: Db, now: () => Date, limits: Readonly<Record<CallKind, number>> = DEFAULT_LIMITS): RateLimiter {
  let currentWindow = 0;
  const counters = new Map<string, Counter>();
  /** Counters with calls not yet written, for the next write. */
  const pending = new Set<Counter>();
  let writing = false;

  /**
   * One write at a time, for every counter with calls not yet written (group commit): the calls
   * that arrive while a write runs go into the next one, so a busy process writes its counts in a
   * few statements a second however many calls and keys there are.
   */
  const flush = async (): Promise<boolean> => {
    const batch = [...pending];
    pending.clear();
    const taken = batch.map((c) => {
      const t = { admitted: c.admitted, asking: c.asking.splice(0), touchAt: c.touchAt };
      c.admitted = 0;
      c.touchAt = undefined;
      c.writing = t.admitted + t.asking.length;
      return t;
    });
    const writes: CounterWrite[] = batch.map((c, i) => ({ apiKeyId: c.apiKeyId, kind: c.kind, windowMs: c.windowMs, admitted: taken[i]!.admitted, asking: taken[i]!.asking.length, limit: limits[c.kind] }));
    const touches = new Map<string, Date>();
    taken.forEach((t, i) => t.touchAt && touches.set(batch[i]!.apiKeyId, t.touchAt));
    try {
      const counted = await db.autocommit((q) => hitRateCounters(q, writes, touches));
      batch.forEach((c, i) => {
        const r = counted[i]!;
        const { admitted, asking } = taken[i]!;
        c.stored = r.count;
        c.known = true;
        // The first (count - prev - admitted) asking calls got in, in order.
        const placed = r.count - r.prev - admitted;
        asking.forEach((a, k) => a.resolve(k < placed ? r.prev + admitted + k + 1 : undefined));
      });
      return true;
    } catch (e) {
      const again = (e as { code?: string }).code === DEADLOCK;
      batch.forEach((c, i) => {
        const t = taken[i]!;
        // Admitted calls are counted by the next write; asking ones fail with this one (or wait for the next after a deadlock).
        c.admitted += t.admitted;
        c.touchAt ??= t.touchAt;
        if (again) c.asking.unshift(...t.asking);
        else for (const a of t.asking) a.reject(e);
        if (c.admitted > 0 || c.asking.length > 0 || c.touchAt) pending.add(c);
      });
      // After any other failure the next call starts the next write (no retry loop against a database that is down).
      return again;
    } finally {
      for (const c of batch) c.writing = 0;
    }
  };
  /** Starts a write now when none runs; else the running one starts the next when it ends. */
  const schedule = () => {
    if (writing) return;
    writing = true;
    void (async () => {
      try {
        while (pending.size > 0 && (await flush()));
      } finally {
        // In the same turn as the last check of `pending`: a call arriving after it starts a write of its own.
        writing = false;
      }
    })();
  };

  return {
    async hit(apiKeyId, kind, touchAt) {
      const nowMs = now().getTime();
      const windowMs = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      const limit = limits[kind];
      if (windowMs !== currentWindow) {
        currentWindow = windowMs;
        // Past windows are forgotten here; calls admitted and not yet written stay pending and are written.
        for (const [id, c] of counters) if (c.windowMs < windowMs) counters.delete(id);
        // Behind the call too: nothing waits for old windows to go.
        void pruneRateCounters(db.kysely, windowMs - WINDOW_MS).catch(() => undefined);
      }
      const id = `${apiKeyId}\n${kind}\n${windowMs}`;
      let c = counters.get(id);
      if (!c) counters.set(id, (c = { apiKeyId, kind, windowMs, stored: 0, known: false, admitted: 0, asking: [], writing: 0 }));
      if (touchAt) c.touchAt = touchAt;
      const estimate = c.stored + c.writing + c.admitted + c.asking.length + 1;
      let count: number | undefined;
      pending.add(c);
      if (c.known && estimate <= limit / 2) {
        // Far below the limit: answered now, counted by the write behind it (a failed write's calls go into the next).
        c.admitted += 1;
        count = estimate;
        schedule();
      } else {
        // Judged by the database: admitted only while the stored count of admitted calls is below the limit.
        const place = new Promise<number | undefined>((resolve, reject) => c.asking.push({ resolve, reject }));
        schedule();
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
