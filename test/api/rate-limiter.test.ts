/**
 * The rate limiter's counting under concurrency (api/rate-limit.ts): calls answered out of
 * leases taken from the database's count, calls waiting for a lease each judged by their own
 * place in it, a process that has not yet heard the database's count for a window letting no
 * burst through, and two processes (two database handles) never passing the limit together.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { DEFAULT_LIMITS, leaseSize, rateLimiter } from '../../src/api/rate-limit.js';
import { dialects, freshDb, openAgain, type TestDb, useFreshDb } from '../helpers/db.js';
import { SETTLE } from '../helpers/wait.js';

const AT = new Date('2026-03-01T10:00:30.000Z');
const now = () => AT;

/** Outcomes of calls: 'ok' or 'limited'. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { kind?: string }) => (e.kind === 'rate-limited' ? 'limited' : Promise.reject(e)),
  );

for (const d of dialects) {
  describe.skipIf(d.skip)(`the rate limiter on ${d.label}`, () => {
    const db = useFreshDb(d.name);

    it('lets exactly the limit through when the last calls arrive together and are written in one write', async () => {
      const limiter = rateLimiter(db(), now, { ...DEFAULT_LIMITS, report: 5 });
      for (let i = 0; i < 4; i++) await limiter.hit('key-batch', 'report');
      const results = await Promise.all(Array.from({ length: 4 }, () => outcome(limiter.hit('key-batch', 'report'))));
      expect(results).toEqual(['ok', 'limited', 'limited', 'limited']);
    });

    it('lets no more than the limit through a burst at a process that has not yet heard the count', async () => {
      const first = rateLimiter(db(), now, { ...DEFAULT_LIMITS, read: 120 });
      for (let i = 0; i < 120; i++) await first.hit('key-shared', 'read');
      const second = rateLimiter(db(), now, { ...DEFAULT_LIMITS, read: 120 });
      const burst = await Promise.all(Array.from({ length: 60 }, () => outcome(second.hit('key-shared', 'read'))));
      expect(burst.filter((r) => r === 'ok')).toHaveLength(0);
    });

    it('answers a burst far below the limit out of leases: a few writes, and the count is what was leased', async () => {
      const limiter = rateLimiter(db(), now, { ...DEFAULT_LIMITS, read: 1000 });
      await limiter.hit('key-burst', 'read');
      const results = await Promise.all(Array.from({ length: 200 }, () => outcome(limiter.hit('key-burst', 'read'))));
      expect(results.every((r) => r === 'ok')).toBe(true);
      const stored = async () => Number((await db().kysely.selectFrom('rate_counters').select('count').where('api_key_id', '=', 'key-burst').executeTakeFirst())?.count ?? 0);
      // Every call answered was leased; the process holds at most one lease (100 calls) unspent.
      await vi.waitFor(async () => expect(await stored()).toBeGreaterThanOrEqual(201), SETTLE);
      expect(await stored()).toBeLessThanOrEqual(201 + leaseSize(1000));
    });

    it('writes nothing for a call made out of its lease', async () => {
      const limiter = rateLimiter(db(), now, { ...DEFAULT_LIMITS, read: 120 });
      await limiter.hit('key-leased', 'read');
      const stored = async () => Number((await db().kysely.selectFrom('rate_counters').select('count').where('api_key_id', '=', 'key-leased').executeTakeFirst())?.count ?? 0);
      // The first call waits for its lease: itself and a full lease of 12 besides.
      expect(await stored()).toBe(13);
      for (let i = 0; i < 5; i++) await limiter.hit('key-leased', 'read');
      expect(await stored()).toBe(13);
      // Half the lease spent: the next is asked for behind the call, topping it up to 12 held.
      await limiter.hit('key-leased', 'read');
      await vi.waitFor(async () => expect(await stored()).toBe(19), SETTLE);
    });

    it('says how many calls remain in the headers, exactly, for one process', async () => {
      const limiter = rateLimiter(db(), now, { ...DEFAULT_LIMITS, read: 120 });
      for (let i = 1; i <= 120; i++) {
        const d = await limiter.hit('key-headers', 'read');
        expect(d.headers.ratelimit, `call ${i}`).toBe(`"read";r=${120 - i};t=30`);
      }
      await expect(limiter.hit('key-headers', 'read')).rejects.toMatchObject({ kind: 'rate-limited' });
    });
  });
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`two processes' rate limiters sharing one ${d.label} database`, () => {
    let t: TestDb | undefined;
    let other: Db | undefined;
    beforeAll(async () => {
      t = await freshDb(d.name);
      other = await openAgain(t);
    });
    afterAll(async () => {
      await other?.close();
      await t?.cleanup();
    });

    it('never admit more than the limit together, and refuse at most a lease before it', async () => {
      const limit = 120;
      for (const [round, size] of [[1, 5], [2, 40]] as const) {
        const a = rateLimiter(t!.db, now, { ...DEFAULT_LIMITS, read: limit });
        const b = rateLimiter(other!, now, { ...DEFAULT_LIMITS, read: limit });
        const key = `key-two-${round}`;
        const results: string[] = [];
        // Waves of concurrent calls on both handles, until both refuse.
        for (let wave = 0; wave < 100 && results.filter((r) => r === 'limited').length < 2 * size; wave++) {
          results.push(...(await Promise.all([...Array.from({ length: size }, () => outcome(a.hit(key, 'read'))), ...Array.from({ length: size }, () => outcome(b.hit(key, 'read')))])));
        }
        const ok = results.filter((r) => r === 'ok').length;
        expect(ok, `waves of ${size}`).toBeLessThanOrEqual(limit);
        expect(ok, `waves of ${size}`).toBeGreaterThanOrEqual(limit - leaseSize(limit));
        const stored = await t!.db.kysely.selectFrom('rate_counters').select('count').where('api_key_id', '=', key).executeTakeFirst();
        expect(Number(stored?.count)).toBeLessThanOrEqual(limit);
      }
    });

    it('hold the limit when one process only starts once the other has leased', async () => {
      const a = rateLimiter(t!.db, now, { ...DEFAULT_LIMITS, read: 120 });
      const b = rateLimiter(other!, now, { ...DEFAULT_LIMITS, read: 120 });
      for (let i = 0; i < 100; i++) await a.hit('key-late', 'read');
      const late = await Promise.all(Array.from({ length: 60 }, () => outcome(b.hit('key-late', 'read'))));
      const more = await Promise.all(Array.from({ length: 60 }, () => outcome(a.hit('key-late', 'read'))));
      const ok = 100 + [...late, ...more].filter((r) => r === 'ok').length;
      expect(ok).toBeLessThanOrEqual(120);
      expect(ok).toBeGreaterThanOrEqual(120 - leaseSize(120));
    });
  });
}
