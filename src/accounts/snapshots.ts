/**
 * What scoring reads of the ingested panel: every store's latest ingested month and its recent
 * signals, only from the runs ingested_months makes visible (a month being loaded is not seen).
 */
import { type Kysely, sql } from 'kysely';
import type { RecentSignal, StoreSnapshot } from './model.js';
import { SIGNAL_WINDOW } from './prior.js';
import { previousMonth } from '../core/panel-contract.js';
import type { Database } from '../db/database.js';
import { toFeatures, visibleStoreMonths, visibleStoreSignals } from '../ingest/index.js';

/** Every store's latest ingested month with the signals of the last SIGNAL_WINDOW months (newest first). */
export async function loadSnapshots(q: Kysely<Database>, latestMonth: string): Promise<StoreSnapshot[]> {
  const numbered = visibleStoreMonths(q)
    .selectAll('sm')
    .select(sql<number>`row_number() over (partition by sm.store_id order by sm.month desc)`.as('rn'));
  const rows = await q.selectFrom(numbered.as('t')).selectAll().where('rn', '=', 1).execute();
  let from = latestMonth;
  for (let i = 1; i < SIGNAL_WINDOW; i++) from = previousMonth(from);
  const signals = await visibleStoreSignals(q)
    .select(['ss.id', 'ss.store_id', 'ss.month', 'ss.type', 'ss.subject', 'ss.strength', 'ss.detail'])
    .where('ss.month', '>=', from)
    .where('ss.month', '<=', latestMonth)
    .orderBy('ss.store_id')
    .orderBy('ss.month', 'desc')
    .orderBy('ss.id')
    .execute();
  const byStore = new Map<string, RecentSignal[]>();
  for (const { store_id, ...signal } of signals) {
    const arr = byStore.get(store_id) ?? [];
    arr.push(signal);
    byStore.set(store_id, arr);
  }
  return rows.map((r) => ({ store_id: r.store_id, ...toFeatures(r), signals: byStore.get(r.store_id) ?? [] }));
}
