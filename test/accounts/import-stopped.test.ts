/**
 * An import stopped part way (Ctrl-C or SIGTERM of `storelens accounts import`) takes back the
 * version it was writing: the workspace keeps its accounts as they were, and no half-written
 * version waits to be swept.
 */
import { describe, expect, it } from 'vitest';
import { currentRanking } from '../../src/accounts/ranking-reads.js';
import { importAccounts } from '../../src/accounts/store.js';
import { workspace } from '../helpers/api.js';
import { dialects, useFreshDb } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`an accounts import stopped part way on ${d.label}`, () => {
    const db = useFreshDb(d.name);

    it('writes nothing once stopped: the accounts stay as they were, and the version it was writing is gone', async () => {
      const ws = await workspace(db());
      await importAccounts(db(), ws.id, [{ store_id: 'kept', score: 0.4, domain: 'kept.example' }], new Date());
      const before = await currentRanking(db().kysely, ws.id);
      // Stopped once the import has handed itself a version and written its first part, as a
      // Ctrl-C between two parts stops it (the import ran on to the end and made its version current).
      const stop = new AbortController();
      let writes = 0;
      const stopping = Object.create(db()) as ReturnType<typeof db>;
      stopping.write = async (fn) => {
        const r = await db().write(fn);
        if (++writes === 2) stop.abort();
        return r;
      };
      const accounts = Array.from({ length: 3000 }, (_, i) => ({ store_id: `new-${i}`, score: 0.5 }));
      await expect(importAccounts(stopping, ws.id, [...accounts, { store_id: 'kept', score: 0.9, domain: 'changed.example' }], new Date(), stop.signal)).rejects.toThrow(/abort/i);
      const after = await currentRanking(db().kysely, ws.id);
      expect(after.version).toBe(before.version);
      expect(after.rows.map((r) => [r.store_id, r.score])).toEqual([['kept', 0.4]]);
      const versions = await db().kysely.selectFrom('ranking_versions').select(['version', 'state']).where('workspace_id', '=', ws.id).execute();
      expect(versions).toEqual([{ version: before.version, state: 'current' }]);
    });
  });
}
