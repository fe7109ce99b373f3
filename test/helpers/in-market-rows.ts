/**
 * The in-market list's rules (src/accounts/in-market.ts, which works on columns in store_id
 * order) over rows named by store id, for tests that read them by id.
 */
import { EXPLORE_BOUND, EXPLORE_EVERY, EXPLORE_SHARE, listOrder, scoreOrder, selectInMarketColumns, type RankColumns } from '../../src/accounts/in-market.js';

export interface RankInput {
  store_id: string;
  score: number;
  /** Could be in-market at all: a recent signal, present in the latest month, status allows. */
  eligible: boolean;
  labelled: boolean;
  /** The logit at the posterior mode (default: the score's). */
  logit?: number;
  /** The logit's posterior sd (default 0: as sure as its score says). */
  sd?: number;
}

/** Rows as columns in store_id order (`ids[k]`). */
function columnsOf(rows: readonly RankInput[]): { ids: string[]; c: RankColumns } {
  const at = Uint32Array.from(rows, (_, k) => k).sort((a, b) => (rows[a].store_id < rows[b].store_id ? -1 : rows[a].store_id > rows[b].store_id ? 1 : 0));
  const col = (f: (r: RankInput) => number) => Float64Array.from(at, (k) => f(rows[k]));
  return {
    ids: Array.from(at, (k) => rows[k].store_id),
    c: {
      score: col((r) => r.score),
      logit: col((r) => r.logit ?? Math.log(r.score / (1 - r.score))),
      sd: col((r) => r.sd ?? 0),
      eligible: Uint8Array.from(at, (k) => (rows[k].eligible ? 1 : 0)),
      labelled: Uint8Array.from(at, (k) => (rows[k].labelled ? 1 : 0)),
    },
  };
}

/** Each row's position in the ranking (0 first): listOrder by store id; `picks`, the explore rows by their upper bound (highest first), when given. */
export function listPositions(rows: readonly RankInput[], inMarket: ReadonlySet<string>, explore: ReadonlySet<string>, every = EXPLORE_EVERY, picks?: readonly string[]): Map<string, number> {
  const { ids, c } = columnsOf(rows);
  const mark = (set: ReadonlySet<string>) => Uint8Array.from(ids, (id) => (set.has(id) ? 1 : 0));
  const byId = new Map(ids.map((id, k) => [id, k]));
  const picked = picks ? { picks: Uint32Array.from(picks, (id) => byId.get(id)!) } : {};
  const ranked = listOrder(c.labelled, scoreOrder(c.score), { inMarket: mark(inMarket), explore: mark(explore), ...picked }, every);
  const pos = new Map<string, number>();
  ranked.forEach((k, p) => pos.set(ids[k], p));
  return pos;
}

/** The in-market list and its explore rows by store id: selectInMarketColumns. */
export function selectInMarket(rows: readonly RankInput[], exploreShare = EXPLORE_SHARE, bound = EXPLORE_BOUND): { inMarket: Set<string>; explore: Set<string>; threshold: number } {
  const { ids, c } = columnsOf(rows);
  const l = selectInMarketColumns(c, scoreOrder(c.score), exploreShare, bound);
  // The list in the rows' order, then the explore rows in the order they were picked.
  const inMarket = new Set(rows.filter((r) => r.eligible && r.score >= l.threshold).map((r) => r.store_id));
  const explore = new Set(Array.from(l.picks, (k) => ids[k]));
  for (const id of explore) inMarket.add(id);
  return { inMarket, explore, threshold: l.threshold };
}
