/**
 * Rate limits per key per minute by call kind (read 120, write 20, report 5): a fixed
 * one-minute window counted in the database, so every api process shares the counters.
 * Headers per draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "read";q=120;w=60`
 * and `RateLimit: "read";r=<remaining>;t=<seconds to reset>`; 429 adds `Retry-After`.
 *
 * A process leases a key's calls from the database a few at a time (quota leasing, as Envoy's
 * and Stripe's limiters do): one write takes up to LEASE_SHARE of the limit (no more than a
 * quarter of what the window has left: leaseOf) from the window's count, which never passes the
 * limit, and the process spends the lease in memory, one call at a time, writing nothing. It
 * asks for the next lease (to top up to a full one) when half the last is spent, so a steady
 * caller waits for the database only when a lease ran out before the next was written; calls
 * that arrive with nothing leased wait, in order, and the write that leases for them asks for
 * one call each plus a full lease. Near the limit (a lease of one) nothing is leased ahead.
 * Writes are grouped: one at a time per process, for every key and kind that needs a lease (one
 * statement on PostgreSQL, committed without waiting for the disk: see rate-counters.ts). A
 * lease is never given back: what a process has not spent when the minute ends is lost with
 * the window.
 *
 * So the database's count is the calls every process leased, and a call is admitted only out of
 * a lease: P processes together never pass the limit. One process holds it exactly (it spends
 * every call it leased: the 121st read is refused). With several, a key can be refused before
 * the limit by the calls other processes leased and have not spent, at most (P − 1) × the lease
 * (12 reads, 2 writes, 1 report), never after it (before leases: never before the limit, and up
 * to (P − 1) × limit / 2 after it). `r` counts the database's leased calls as spent except this
 * process's own unspent ones, so it never says more remain than do.
 */
import type { Db } from '../db/database.js';
import { type CounterWrite, hitRateCounters, pruneRateCounters } from './rate-counters.js';
import { ApiProblem } from './problems.js';
import type { CallKind } from './route-def.js';

export const WINDOW_MS = 60_000;
export const DEFAULT_LIMITS: Readonly<Record<CallKind, number>> = { read: 120, write: 20, report: 5 };
/** The share of a limit one write leases: 12 reads, 2 writes, 1 report (at least one call). */
export const LEASE_SHARE = 0.1;

/** Calls one write leases for a limit (with calls waiting, one each besides). */
export const leaseSize = (limit: number): number => Math.max(1, Math.ceil(limit * LEASE_SHARE));

export interface RateDecision {
  headers: Record<string, string>;
}

export interface RateLimiter {
  /**
   * Counts the call; throws a 429 problem when over the limit. Resolves to headers for the
   * response. With touchAt, records the key's last use in the next write.
   */
  hit(apiKeyId: string, kind: CallKind, touchAt?: Date): Promise<RateDecision>;
}

/** One key's calls of one kind in one window, as this process knows them. */
interface Counter {
  apiKeyId: string;
  kind: CallKind;
  windowMs: number;
  limit: number;
  lease: number;
  /** the window's leased calls in the database (every process's) as the last write answered */
  stored: number;
  /** whether a write answered yet (until then this process knows nothing of the others' calls) */
  known: boolean;
  /** calls this process leased and has not spent */
  held: number;
  /** calls waiting for a lease, in arrival order (only while nothing is held) */
  waiting: Array<{ resolve: (count: number | undefined) => void; reject: (e: unknown) => void }>;
  /** idle, in the next write (pending) or in the one running now */
  state: 'idle' | 'pending' | 'writing';
}

/** PostgreSQL's deadlock_detected: two processes' writes crossed; the leases are asked again. */
const DEADLOCK = '40P01';

/**
 * The calls a lease of `c` tops up to: LEASE_SHARE of the limit, and no more than a quarter of
 * what the window has left as this process last heard it, so that the calls other processes
 * leased and may not spend shrink with what is left. A lease of one is not taken ahead: near the
 * limit each call asks the database for itself, as it does for a report.
 */
function leaseOf(c: Counter): number {
  return c.known ? Math.min(c.lease, Math.floor((c.limit - c.stored) / 4)) : c.lease;
}

export function rateLimiter(db: Db, now: () => Date, limits: Readonly<Record<CallKind, number>> = DEFAULT_LIMITS): RateLimiter {
  let currentWindow = 0;
  const counters = new Map<string, Counter>();
  /** Counters that need a lease, for the next write. */
  const pending = new Set<Counter>();
  /** Keys' last use to record, for the next write. */
  let touches = new Map<string, Date>();
  let writing = false;

  /** Asks for a lease in the next write when this counter needs one and may still get one. */
  const lease = (c: Counter) => {
    if (c.state !== 'idle') return;
    const size = leaseOf(c);
    if (c.waiting.length === 0 && !(size > 1 && c.held <= size / 2)) return;
    c.state = 'pending';
    pending.add(c);
    schedule();
  };

  /** Leased calls go to the waiting calls first, in order; what is left is held. */
  const serve = (c: Counter) => {
    while (c.held > 0 && c.waiting.length > 0) {
      c.held -= 1;
      c.waiting.shift()!.resolve(c.stored - c.held);
    }
  };

  /**
   * One write at a time, for every counter that needs a lease (group commit): the counters that
   * need one while a write runs go into the next, so a busy process writes a few statements a
   * second however many calls and keys there are.
   */
  const flush = async (): Promise<boolean> => {
    const batch = [...pending];
    pending.clear();
    const touched = touches;
    touches = new Map();
    const asked = batch.map((c) => {
      c.state = 'writing';
      // Calls waiting now get one each; the rest tops the lease up (nothing is held while calls wait).
      const size = leaseOf(c);
      return c.waiting.length + (size > 1 ? Math.max(0, size - c.held) : 0);
    });
    const writes: CounterWrite[] = batch.map((c, i) => ({ apiKeyId: c.apiKeyId, kind: c.kind, windowMs: c.windowMs, asking: asked[i]!, limit: c.limit }));
    try {
      const counted = await db.autocommit((q) => hitRateCounters(q, writes, touched));
      batch.forEach((c, i) => {
        const r = counted[i]!;
        const granted = Math.max(0, r.count - r.prev);
        c.stored = r.count;
        c.known = true;
        c.held += granted;
        c.state = 'idle';
        serve(c);
        // Less than asked: the window's limit is reached and no lease is left for the calls still waiting.
        if (granted < asked[i]!) for (const w of c.waiting.splice(0)) w.resolve(undefined);
        lease(c);
      });
      return true;
    } catch (e) {
      const again = (e as { code?: string }).code === DEADLOCK;
      for (const [id, at] of touched) if (!touches.has(id)) touches.set(id, at);
      for (const c of batch) {
        c.state = 'idle';
        // The calls waiting fail with this write (or wait for the next after a deadlock).
        if (!again) for (const w of c.waiting.splice(0)) w.reject(e);
        else lease(c);
      }
      // After any other failure the next call starts the next write (no retry loop against a database that is down).
      return again;
    }
  };
  /** Starts a write now when none runs; else the running one starts the next when it ends. */
  const schedule = () => {
    if (writing) return;
    writing = true;
    void (async () => {
      try {
        while ((pending.size > 0 || touches.size > 0) && (await flush()));
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
        // Past windows are forgotten here (what they leased and did not spend is lost with them).
        for (const [id, c] of counters) if (c.windowMs < windowMs) counters.delete(id);
        // Behind the call too: nothing waits for old windows to go.
        void pruneRateCounters(db.kysely, windowMs - WINDOW_MS).catch(() => undefined);
      }
      const id = `${apiKeyId}\n${kind}\n${windowMs}`;
      let c = counters.get(id);
      if (!c) counters.set(id, (c = { apiKeyId, kind, windowMs, limit, lease: leaseSize(limit), stored: 0, known: false, held: 0, waiting: [], state: 'idle' }));
      if (touchAt) {
        touches.set(apiKeyId, touchAt);
        schedule();
      }
      let count: number | undefined;
      if (c.held > 0) {
        // Spent out of this process's lease: nothing written (the next lease is asked for behind the call).
        c.held -= 1;
        count = c.stored - c.held;
        lease(c);
      } else if (c.known && c.stored >= c.limit && c.state === 'idle') {
        // The window's limit is leased, and a lease is never given back: refused without asking.
        count = undefined;
      } else {
        const place = new Promise<number | undefined>((resolve, reject) => c.waiting.push({ resolve, reject }));
        lease(c);
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
