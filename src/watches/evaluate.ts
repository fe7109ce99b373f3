/**
 * The check of every active watch, run after each ingest (the background worker's `watches`
 * task, `storelens ingest`) and on the worker's interval. A watch is checked when its
 * generation moved — the ingested months and their runs, its stores (for the managed watch:
 * its capacity and the in-market accounts), or the current month (staleness) — so a second
 * call with nothing new writes nothing. A check records, in one transaction: the findings of
 * the latest month as watch events (a new finding as a new event, one no longer found ended), a
 * receipt, the new health and, when the health level changed, exactly one `watch.health_changed`
 * event in the outbox.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db, Database } from '../db/database.js';
import { countInMarket, inMarketStoreIds } from '../accounts/index.js';
import { ingestedMonths, visibleStoreMonths, visibleStoreSignals } from '../ingest/index.js';
import {
  activeWatches,
  endWatchEvents,
  insertWatchEvents,
  insertWatchReceipt,
  monthFindingEvents,
  watchStoreIds,
  type WatchEventRow,
  type WatchRow,
} from './store.js';
import { setWatchHealth } from './set-health.js';
import { newId, nextSeq } from '../db/ids.js';
import { deriveHealth, type Finding, monthOf, previousMonth, type StoreObservation, type WatchObservation } from './health.js';

export interface EvaluateSummary {
  /** Watches checked now (their generation moved). */
  checked: number;
  /** Of those, the ones whose health level changed (one event each). */
  changed: number;
}

const hash = (parts: readonly unknown[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

const CHUNK = 500;

/** What the watched stores show in `month` (and the revenue of the calendar-previous month). */
async function observeStores(q: Kysely<Database>, storeIds: readonly string[], month: string): Promise<StoreObservation[]> {
  const prev = previousMonth(month);
  const rows: { store_id: string; month: string; domain: string | null; est_monthly_revenue_usd: number | null }[] = [];
  const signals: { store_id: string; type: StoreObservation['signals'][number]['type']; subject: string | null; detail: string }[] = [];
  for (let i = 0; i < storeIds.length; i += CHUNK) {
    const ids = storeIds.slice(i, i + CHUNK);
    rows.push(
      ...(await visibleStoreMonths(q)
        .select(['sm.store_id', 'sm.month', 'sm.domain', 'sm.est_monthly_revenue_usd'])
        .where('sm.store_id', 'in', ids)
        .where('sm.month', 'in', [month, prev])
        .execute()),
    );
    signals.push(
      ...(await visibleStoreSignals(q)
        .select(['ss.store_id', 'ss.type', 'ss.subject', 'ss.detail'])
        .where('ss.store_id', 'in', ids)
        .where('ss.month', '=', month)
        .orderBy('ss.id')
        .execute()),
    );
  }
  const num = (x: number | null | undefined) => (x === null || x === undefined ? null : Number(x));
  const now = new Map(rows.filter((r) => r.month === month).map((r) => [r.store_id, r]));
  const before = new Map(rows.filter((r) => r.month === prev).map((r) => [r.store_id, r]));
  const byStore = new Map<string, StoreObservation['signals'][number][]>();
  for (const { store_id, type, subject, detail } of signals) {
    const list = byStore.get(store_id) ?? [];
    list.push({ type, subject, detail });
    byStore.set(store_id, list);
  }
  return storeIds.map((id) => {
    const cur = now.get(id);
    const was = before.get(id);
    return {
      store_id: id,
      domain: cur?.domain ?? was?.domain ?? null,
      present: cur !== undefined,
      signals: byStore.get(id) ?? [],
      revenue: { current: num(cur?.est_monthly_revenue_usd), previous: num(was?.est_monthly_revenue_usd) },
    };
  });
}

/** Which finding of a watch's month `f` is: the same store, kind and subject is the same finding. */
export const findingKey = (watchId: string, month: string, f: Finding): string => hash([watchId, month, f.store_id, f.kind, f.subject]).slice(0, 24);

/**
 * The id of the event recording a finding for the `episode`-th time in its month (0 the first):
 * `wev_` and the finding's key the first time (the id events had before migration 0042), so
 * recording the same event twice is a no-op.
 */
const findingEventId = (key: string, episode: number): string => `wev_${episode === 0 ? key : hash([key, episode]).slice(0, 24)}`;

type RecordedFinding = Pick<WatchEventRow, 'id' | 'finding' | 'domain' | 'level' | 'detail' | 'ended_at'>;

/**
 * What a check of a month changes in the findings already recorded for that month: an open event
 * whose finding the check found again, saying the same, stays; one whose finding it did not find,
 * or found saying something else (a new capacity, an older age), ends; a finding without an open
 * event saying it is recorded again, as the next episode of its key. Pure.
 */
function reconcileFindings(
  recorded: readonly RecordedFinding[],
  found: readonly { key: string; finding: Finding }[],
): { end: string[]; record: { key: string; finding: Finding; episode: number }[] } {
  const open = new Map(recorded.filter((e) => e.ended_at === null && e.finding !== null).map((e) => [e.finding!, e]));
  const episodes = new Map<string, number>();
  for (const e of recorded) if (e.finding !== null) episodes.set(e.finding, (episodes.get(e.finding) ?? 0) + 1);
  const end: string[] = [];
  const record: { key: string; finding: Finding; episode: number }[] = [];
  const seen = new Set<string>();
  for (const { key, finding: f } of found) {
    if (seen.has(key)) continue;
    seen.add(key);
    const e = open.get(key);
    if (e && e.detail === f.detail && e.level === f.level && e.domain === f.domain) {
      open.delete(key);
      continue;
    }
    record.push({ key, finding: f, episode: episodes.get(key) ?? 0 });
  }
  for (const e of open.values()) end.push(e.id);
  return { end, record };
}

export async function evaluateWatches(db: Db, now: Date): Promise<EvaluateSummary> {
  const summary: EvaluateSummary = { checked: 0, changed: 0 };
  const months = await ingestedMonths(db.kysely);
  const latest = months[months.length - 1];
  if (!latest) return summary;
  const currentMonth = monthOf(now);
  const base = [months.map((m) => [m.month, m.run_id]), currentMonth];
  for (const w of await activeWatches(db.kysely)) {
    let storeIds: string[];
    let capacity: WatchObservation['capacity'];
    if (w.type === 'managed') {
      const cap = w.capacity ?? 0;
      storeIds = await inMarketStoreIds(db.kysely, w.workspace_id, cap);
      capacity = { capacity: cap, inMarket: await countInMarket(db.kysely, w.workspace_id) };
    } else {
      storeIds = await watchStoreIds(db.kysely, w.id);
    }
    const generation = hash([base, storeIds, capacity ?? null]);
    if (generation === w.generation) continue;
    const observation = { month: latest.month, currentMonth, stores: await observeStores(db.kysely, storeIds, latest.month), capacity };
    const result = deriveHealth(observation);
    const changed = await db.write((trx) => recordCheck(trx, w, generation, latest, storeIds, result, now));
    if (changed === undefined) continue;
    summary.checked++;
    if (changed) summary.changed++;
  }
  return summary;
}

/**
 * Records one check, unless another check of the same watch got there first or the watch was
 * cancelled meanwhile (undefined, nothing written). True when the health level changed.
 */
async function recordCheck(
  trx: Kysely<Database>,
  w: WatchRow,
  generation: string,
  latest: { month: string; run_id: string },
  storeIds: readonly string[],
  result: ReturnType<typeof deriveHealth>,
  now: Date,
): Promise<boolean | undefined> {
  const at = now.toISOString();
  let claim = trx
    .updateTable('watches')
    .set({ generation, checked_month: latest.month, checked_at: at })
    .where('id', '=', w.id)
    .where('status', '=', 'active');
  claim = w.generation === null ? claim.where('generation', 'is', null) : claim.where('generation', '=', w.generation);
  // The claim is a conditional UPDATE: it locks the watch row, and a concurrent check of the same
  // generation (another process) waits for it and then matches no row, so it records nothing.
  if (Number((await claim.executeTakeFirst()).numUpdatedRows) === 0) return undefined;
  // Re-read the health inside the transaction: a cancel or another check may have moved it.
  const current = await trx.selectFrom('watches').select(['health']).where('id', '=', w.id).executeTakeFirstOrThrow();
  // The month's findings as recorded, read under the claim: no other check of this watch writes them meanwhile.
  const found = result.findings.map((finding) => ({ key: findingKey(w.id, latest.month, finding), finding }));
  const { end, record } = reconcileFindings(await monthFindingEvents(trx, w.id, latest.month), found);
  // Ended first: a finding told again is one open event again (index watch_events_open_finding).
  await endWatchEvents(trx, end, at);
  const events: WatchEventRow[] = record.map(({ key, finding: f, episode }) => ({
    id: findingEventId(key, episode),
    watch_id: w.id,
    month: latest.month,
    store_id: f.store_id,
    domain: f.domain,
    kind: f.kind,
    level: f.level,
    detail: f.detail,
    finding: key,
    created_at: at,
    ended_at: null,
  }));
  if (current.health !== result.health) {
    events.push({
      id: `wev_${newId('h').slice(2)}`,
      watch_id: w.id,
      month: latest.month,
      store_id: null,
      domain: null,
      kind: 'health_changed',
      level: result.health,
      detail: `Health ${current.health} → ${result.health}: ${result.reason}`,
      finding: null,
      created_at: at,
      ended_at: null,
    });
  }
  await insertWatchEvents(trx, events);
  await insertWatchReceipt(trx, {
    id: newId('wrc'),
    watch_id: w.id,
    seq: nextSeq(now),
    month: latest.month,
    run_id: latest.run_id,
    store_ids: JSON.stringify(storeIds),
    health: result.health,
    health_reason: result.reason,
    checked_at: at,
  });
  return setWatchHealth(trx, w, result.health, result.reason, now);
}
