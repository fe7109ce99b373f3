/**
 * The read limit (120 a minute per key) with one key's calls split over two api processes: a
 * call is refused only once 120 calls were admitted (never before the limit), and the two
 * processes together admit at most 120 + 60, the calls one process admits on its own estimate
 * before it hears the other's count (docs/rest-api.md, "Rate limits").
 */
import { describe, expect, it, vi } from 'vitest';
import { WINDOW_MS } from '../../src/api/rate-limit.js';
import { burst, type Fleet, seedWorkspace, statuses } from './fixture.js';

const LIMIT = 120;

export function rateLimitRaces(fleet: () => Fleet): void {
  describe('the read limit', () => {
    it('answers a burst of 200 reads on one key with at least 120 and at most 180 200s, the rest 429 with Retry-After', async () => {
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
        expect(s[200]).toBeGreaterThanOrEqual(LIMIT);
        expect(s[200]).toBeLessThanOrEqual(LIMIT + LIMIT / 2);
        for (const r of rs.filter((x) => x.status === 429)) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        // The database counts admitted calls only: every 200 (written behind the fast ones), no 429.
        const stored = () => f.db.kysely.selectFrom('rate_counters').select('count').where('kind', '=', 'read').where('api_key_id', 'in', f.db.kysely.selectFrom('api_keys').select('id').where('workspace_id', '=', ws.id)).execute();
        await vi.waitFor(async () => expect((await stored()).map((r) => Number(r.count))).toEqual([s[200]]));
      }
    });
  });
}
