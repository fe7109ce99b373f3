/**
 * What a new ranking version changes in the in-market list, against the version it replaces:
 * the accounts that joined it (store.entered) and left it (store.exited). One comparison for
 * every writer that makes a version current — the re-ranking (refresh.ts), an import
 * (store.ts importAccounts) and the re-listing of statuses (statuses-list.ts) — so a
 * subscriber hears the same transitions whichever door the accounts came through.
 *
 * Compared over columns in store_id order (rankings.ts RankedColumns): one byte per account for
 * the old list's marks and an index found by binary search, not a map of every account's row; a
 * million accounts cost a megabyte beside the rows the writer holds anyway. (The marks are packed
 * in the version's blocks, accounts/blocks.ts, so the database cannot compare two versions for
 * us.) The events are made before the version's flip and written in the flip's transaction
 * (rankings.ts writeRanking onCurrent), which makes the version current only if the one compared
 * against still is: each change is announced once, by the writer whose version made it.
 */
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DomainEvent } from '../core/event-declaration.js';
import type { Database } from '../db/database.js';
import { RecentSignal } from './events.js';
import { type CurrentRow, detailColumn } from './ranking-reads.js';
import type { RankedColumns } from './rankings.js';

/** A recent signal as store.entered carries it. */
export type EventSignal = z.output<typeof RecentSignal>;

/** Where each store id is among a version's ids (index k), or undefined. */
export interface IdIndex {
  get(id: string): number | undefined;
  has(id: string): boolean;
}

/**
 * An index of `ids`: by binary search when they are in the order JavaScript compares strings
 * in (the panel's store_id order is, for the ids it has: a million accounts then need no map of a
 * million entries), else a map.
 */
export function idIndex(ids: readonly string[]): IdIndex {
  let sorted = true;
  for (let k = 1; k < ids.length && sorted; k++) sorted = ids[k - 1] < ids[k];
  if (!sorted) {
    const map = new Map(ids.map((id, k) => [id, k]));
    return { get: (id) => map.get(id), has: (id) => map.has(id) };
  }
  const get = (id: string): number | undefined => {
    for (let lo = 0, hi = ids.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid] === id) return mid;
      if (ids[mid] < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  };
  return { get, has: (id) => get(id) !== undefined };
}

/** The list a version replaces: its store ids and, for each, 1 when it was in market. */
export interface ListBefore {
  ids: readonly string[];
  inMarket: Uint8Array;
}

/** The old version's list as ListBefore (its rows in any order). */
export const listBefore = (rows: readonly Pick<CurrentRow, 'store_id' | 'in_market'>[]): ListBefore => ({
  ids: rows.map((r) => r.store_id),
  inMarket: Uint8Array.from(rows, (r) => (r.in_market === 1 ? 1 : 0)),
});

/** The new version's columns a comparison reads. */
export type ListAfter = Pick<RankedColumns, 'storeIds' | 'score' | 'inMarket' | 'explore' | 'modelVersion'>;

/** The old list against the new version's accounts. */
export interface ListComparison {
  /** 1 for the new version's account k when it was in market before. */
  wasIn: Uint8Array;
  /** The accounts in market before that the new version does not have (the workspace no longer sees them). */
  gone: string[];
}

/** Compares the old list with the new version's accounts (`indexOf`: an index of after.storeIds). */
export function compareLists(before: ListBefore, after: Pick<ListAfter, 'storeIds'>, indexOf: IdIndex): ListComparison {
  const gone: string[] = [];
  // A refit of the same accounts shares its ids' array with the version before.
  if (before.ids === after.storeIds) return { wasIn: before.inMarket, gone };
  const wasIn = new Uint8Array(after.storeIds.length);
  before.ids.forEach((id, j) => {
    const k = indexOf.get(id);
    if (k === undefined) {
      if (before.inMarket[j] === 1) gone.push(id);
    } else wasIn[k] = before.inMarket[j];
  });
  return { wasIn, gone };
}

/** The new version's accounts (indexes k) that join the list. */
export function enteringRows(c: ListComparison, after: Pick<ListAfter, 'inMarket'>): number[] {
  const out: number[] = [];
  for (let k = 0; k < after.inMarket.length; k++) if (after.inMarket[k] === 1 && c.wasIn[k] !== 1) out.push(k);
  return out;
}

export interface ListEventSources {
  /** The recent signals account k shows, for its store.entered (asked only of accounts that join). */
  signals(k: number): EventSignal[];
  /** More events of account k, on the list before and after (the re-ranking's store.signal). */
  stayed?(k: number): DomainEvent[];
  /** model_version of a store.exited for an account no longer visible (the re-ranking's version). */
  goneVersion: number;
}

/**
 * The events of the change, in store_id order, then the accounts no longer visible: store.entered
 * for an account that joins, store.exited for one that leaves, each with its score and
 * model_version in the new version. An account on the list in both, or in neither, has none
 * (unless `stayed` gives some).
 */
export function listEvents(c: ListComparison, after: ListAfter, o: ListEventSources): DomainEvent[] {
  const events: DomainEvent[] = [];
  const n = after.storeIds.length;
  for (let k = 0; k < n; k++) {
    const isIn = after.inMarket[k] === 1;
    const was = c.wasIn[k] === 1;
    if (!isIn && !was) continue;
    const store_id = after.storeIds[k];
    const score = after.score[k];
    const model_version = after.modelVersion[k];
    if (isIn && !was) {
      events.push({ type: 'store.entered', data: { store_id, transition: 'entered', score, explore: after.explore[k] === 1, signals: o.signals(k), model_version } });
    } else if (!isIn) {
      events.push({ type: 'store.exited', data: { store_id, transition: 'exited', score, model_version } });
    } else if (o.stayed) events.push(...o.stayed(k));
  }
  for (const store_id of c.gone) events.push({ type: 'store.exited', data: { store_id, transition: 'exited', score: null, reason: 'no longer visible', model_version: o.goneVersion } });
  return events;
}

/**
 * The events of a version written from the stored one (an import, a re-listing): the list of
 * `before` (the version it replaces) against `after`. The signals of an account that joins are
 * those `given` for it (an import's new rows), else those it showed in details generation `gen`
 * (the rows an import carries, whose details it carries; a re-listing's), read for the accounts
 * that join only, 500 a statement. An import carries no signal of its own to announce: it has no
 * store.signal.
 */
export async function storedListEvents(
  q: Kysely<Database>,
  workspaceId: string,
  gen: number | null,
  before: ListBefore,
  after: ListAfter,
  given?: (storeId: string) => readonly unknown[] | undefined,
): Promise<DomainEvent[]> {
  const c = compareLists(before, after, idIndex(after.storeIds));
  const entering = enteringRows(c, after).map((k) => after.storeIds[k]);
  const unknown = entering.filter((id) => given?.(id) === undefined);
  const stored = gen === null || unknown.length === 0 ? new Map<string, string>() : await detailColumn(q, workspaceId, gen, 'signals', unknown);
  return listEvents(c, after, {
    // As the row shows them; an imported row's signals are the importer's (only those in the signal shape are named).
    signals: (k) => {
      const id = after.storeIds[k];
      const shown = given?.(id) ?? (JSON.parse(stored.get(id) ?? '[]') as unknown[]);
      return shown.flatMap((g) => {
        const s = RecentSignal.safeParse(g);
        return s.success ? [s.data] : [];
      });
    },
    // A stored version keeps every account of the one before it: none is gone.
    goneVersion: 0,
  });
}
