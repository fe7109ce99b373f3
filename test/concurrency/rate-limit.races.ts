/**
 * The read limit (120 a minute per key) with one key's calls split over two api processes: each
 * answers calls out of leases taken from the database's count, so the two together admit at
 * most 120, and a call is refused only once 120 calls less the other process's unspent lease
 * (at most 12) were admitted (docs/rest-api.md, "Rate limits").
 */
import { describe, expect, it } from 'vitest';
import { leaseSize, WINDOW_MS } from '../../src/api/rate-limit.js';
import { burst, type Fleet, seedWorkspace, statuses } from './fixture.js';

const LIMIT = 120;

export function rateLimitRaces(fleet: () => Fleet): void {
  describe('the read limit', () => {
    it('answers a burst of 200 reads on one key with at most 120 and at least 108 200s, the rest 429 with Retry-After', async () => {
      const f = fleet();
      let rounds = 0;
      while (rounds < 3) {
        const { ws, keys } = await seedWorkspace(f.db, ['read:accounts'], { accounts: ['store-a'] });
        const window = Math.floor(Date.now() / WINDOW_MS);
        const rs = await burst(f, 200, () => ({ method: 'GET', path: '/accounts?limit=1', key: keys[0]! }));
        // The processes count calls by the real clock: a burst that crossed a minute counts in two windows.
        if (Math.floor(Date.now() / WINDOW_MS) !== window) continue;
        rounds++;
        const s = statuses(rs);
        expect(s[200]! + (s[429] ?? 0)).toBe(200);
        expect(s[200]).toBeGreaterThanOrEqual(LIMIT - leaseSize(LIMIT));
        expect(s[200]).toBeLessThanOrEqual(LIMIT);
        for (const r of rs.filter((x) => x.status === 429)) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        // The database counts leased calls: every 200, and no more than the limit (a 429 leases nothing).
        const stored = () => f.db.kysely.selectFrom('rate_counters').select('count').where('kind', '=', 'read').where('api_key_id', 'in', f.db.kysely.selectFrom('api_keys').select('id').where('workspace_id', '=', ws.id)).execute();
        const [count] = (await stored()).map((r) => Number(r.count));
        expect(count).toBeGreaterThanOrEqual(s[200]!);
        expect(count).toBeLessThanOrEqual(LIMIT);
      }
    });
  });
}
