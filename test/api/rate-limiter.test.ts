/**
 * The rate limiter's counting under concurrency (api/rate-limit.ts): calls counted in one
 * write are each judged by their own place in the count, and a process that has not yet heard
 * the database's count for a window does not let a burst through on its own estimate.
 */
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS, rateLimiter } from '../../src/api/rate-limit.js';
import { dialects, useFreshDb } from '../helpers/db.js';

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

    it('counts every call of a burst far below the limit, written behind the calls', async () => {
      const limiter = rateLimiter(db(), now, { ...DEFAULT_LIMITS, read: 1000 });
      await limiter.hit('key-burst', 'read');
      const results = await Promise.all(Array.from({ length: 200 }, () => outcome(limiter.hit('key-burst', 'read'))));
      expect(results.every((r) => r === 'ok')).toBe(true);
      const stored = async () => Number((await db().kysely.selectFrom('rate_counters').select('count').where('api_key_id', '=', 'key-burst').executeTakeFirst())?.count ?? 0);
      await vi.waitFor(async () => expect(await stored()).toBe(201));
    });
  });
}
