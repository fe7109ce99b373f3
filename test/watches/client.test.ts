/** A generated client (golden types + openapi-fetch) type-checks against and calls every watch operation. */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../helpers/accounts.js';

import { typeErrors } from '../helpers/type-check.js';
import { apiKey, startApi, workspace, type Harness } from '../helpers/api.js';

const USAGE = fileURLToPath(new URL('./client-usage', import.meta.url));
const OPS = [
  'get_managed_watch', 'resize_managed_watch', 'cancel_managed_watch', 'list_watches', 'add_watch', 'get_watch', 'remove_watch',
  'list_watch_stores', 'add_watch_stores', 'remove_watch_store', 'list_watch_events', 'list_watch_receipts', 'get_watch_brief',
];

describe('a generated client of the watch operations', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi('SQLite', { operations: Object.fromEntries(OPS.map((op) => [op, 'available']))  });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('type-checks against the generated types', () => {
    expect(typeErrors(USAGE)).toEqual([]);
  });

  it('calls each watch operation', async () => {
    const ws = await workspace(h.db);
    await seedAccounts(h.db, ws.id, [{ store_id: 'a', score: 0.9 }, { store_id: 'b', score: 0.8 }]);
    const key = await apiKey(h.db, ws.id, ['read:watch', 'write:watch']);
    const { exerciseWatches } = await import('./client-usage.js');
    const r = await exerciseWatches(h.base, key, ['a', 'b']);
    expect(r).toEqual({
      resizedCapacity: 5,
      managedStatus: 'active',
      cancelledHealth: 'paused',
      addedType: 'client',
      listed: [r.id],
      oneClient: 'Acme',
      storeCount: 2,
      stores: ['a', 'b'],
      afterRemoval: 1,
      events: 0,
      receipts: 0,
      briefObject: 'watch_brief',
      markdownType: 'text/markdown; charset=utf-8',
      removed: true,
      id: r.id,
    });
  });
});
