/**
 * Accounts delivered to agents, marked from two database handles at once (two processes): the
 * second mark, having read the accounts as undelivered before the first committed, waits for the
 * first's row locks and then marks none of them, so each delivery is recorded (supervised) once.
 */
import { describe, expect, it } from 'vitest';
import { markDelivered } from '../../src/accounts/store.js';
import { seedAccounts } from '../helpers/accounts.js';
import { dialects, lockWaiter, useTwoHandles } from '../helpers/db.js';
import { workspace } from '../helpers/api.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`accounts delivered, marked on two handles of one ${d.label} database`, () => {
    const handles = useTwoHandles(d.name);

    it('gives each account to the one mark that turned it: the other, waiting on it, gets none', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      const ids = ['store-a', 'store-b', 'store-c'];
      await seedAccounts(t.db, ws.id, ids.map((store_id, i) => ({ store_id, score: 0.9 - i / 10 })));
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let marked!: () => void;
      const firstMarked = new Promise<void>((r) => (marked = r));
      const first = t.db.write(async (trx) => {
        const got = await markDelivered(trx, ws.id, ids, new Date());
        marked();
        await held;
        return got;
      });
      await firstMarked;
      // Read before the first commits: every account still looks undelivered to the second.
      const second = other.write((trx) => markDelivered(trx, ws.id, ids, new Date()));
      // On PostgreSQL the second UPDATE is under way, waiting for the first's row locks, before the first commits.
      if (d.name === 'PostgreSQL') await lockWaiter(t.db.kysely);
      release();
      expect((await first).sort()).toEqual(ids);
      expect(await second).toEqual([]);
    });
  });
}
