/**
 * The in-market list: which accounts are on it (a score at or above the threshold, a recent
 * signal, a status that allows it), which of them are explore rows, and the order an agency reads
 * them in. Pure: rows in, sets and positions out; accounts/refresh.ts writes what they decide.
 */
import { previousMonth } from '../core/panel-contract.js';
import type { StoreSnapshot } from './model.js';
import type { AccountStatus } from './statuses.js';

/**
 * Share of the in-market list reserved for exploration (selectInMarketColumns, EXPLORE_BOUND). Learning
 * benchmark, seeds 1–20, two-part rule: with the floor alone (MIN_EXPLORE rows, which explore
 * first then works all of, not the best-scored of a tenth) mostly the top's worst seed fell to
 * 0.28; drawn picks at a share of 0.05, 0.2 or 0.3 did no better than at 0.1.
 */
export const EXPLORE_SHARE = 0.1;
/**
 * How optimistic the pick of explore rows is (selectInMarketColumns): the accounts with the highest
 * logit + EXPLORE_BOUND × the logit's posterior sd, an upper bound that favours the accounts
 * whose inputs the labels cover least. Learning benchmark, P@50 on unworked accounts after 200
 * outcomes, two-part rule, an agency working every explore row first: 0.69 (worst seed 0.46) of
 * 10 seeds with the picks drawn from the posterior (Thompson sampling), 0.73 (worst 0.68) with
 * the bound at 1.5; over seeds 1–20, 0.68 drawn, 0.74 at 1.5, 0.71 at 1, 0.72 at 2, 0.73 at 3.
 * Working mostly the top: 0.90 (worst 0.60) drawn, 0.91 (worst 0.78) at 1.5, but over seeds 1–20
 * a worst seed of 0.44 (0.60 drawn). The generator's truth does not move (0.79 → 0.78 and 0.80).
 * (Measured by score over every account, with the list then ordered by a posterior draw.) What
 * else was tried is in docs/measurements/learning.md.
 */
export const EXPLORE_BOUND = 1.5;
/**
 * Where the explore rows stand in the in-market list (listOrder): one in every EXPLORE_EVERY
 * rows without an outcome (the 10th, the 20th, …; a tenth of the top positions, as EXPLORE_SHARE
 * is of the list), the other rows best score first. (Counting the worked rows as well, an agency
 * that had worked the top 150 met three explore rows in every ten it had yet to work.) An agency reading from the top sees the model's best
 * nine of every ten, and some of what the model needs to learn. Before, the list was ordered by
 * a posterior draw at twice its spread: a fresh workspace's list barely followed the scores.
 * Learning benchmark, seeds 1–10, P@50 of the next 50 unworked accounts in the list's order after
 * 200 outcomes: ρ(position, score) before any outcome 1 (was −0.06 to 0.43); explore first 0.74,
 * 0.57, 0.85, 0.55 under the four rules (seeds 1–2 with the draw: 0.53, 0.33, 0.65, 0.21); working
 * mostly the top, the same list with its explore rows last won a few more of the 200 (82 against
 * 80 under the generator's truth). The figures are in docs/measurements/learning.md.
 */
export const EXPLORE_EVERY = 10;
/**
 * Explore rows the in-market list keeps however short it is (while eligible unlabelled accounts
 * remain): a round's worth. Once outcomes have pulled most scores under IN_MARKET_MIN_SCORE the
 * list is short, and a tenth of it would stop the learning (learning benchmark, two-part rule,
 * 10 seeds, mostly the top: worst seed 0.34 without it, 0.60 with it).
 */
export const MIN_EXPLORE = 25;
/**
 * The explore rows are never among the best EXPLORE_AFTER in-market rows without an outcome (best
 * score first): an agency reaches those within two rounds of 25 anyway, and marking one would only
 * move it down. Any other eligible, unworked account may be one, in the list further down or below
 * its threshold: where an explore row costs least, as an account the list holds already costs
 * less than one it does not. Learning benchmark (in memory, seeds 4–7, P@50 of the next 50 in the
 * list's order after 200 outcomes, explore first / mostly the top; before, the picks came from
 * below the list only): the generator's truth 0.77 → 0.79 / 0.59 → 0.66, two-part rule 0.82 → 0.92
 * / 0.45 → 0.58, new-channel rule 0.85 → 0.97 / 0.69 → 0.76, plan rule 0.57 → 0.90 / 0.28 → 0.27;
 * from beyond the first 100 or 200 rows, less. The 10-seed figures are in docs/measurements/learning.md.
 */
export const EXPLORE_AFTER = 50;
/** In-market accounts score in the top fifth of the workspace's accounts … */
export const IN_MARKET_QUANTILE = 0.8;
/** … and never below this score. */
export const IN_MARKET_MIN_SCORE = 0.05;
/** Statuses that keep an account out of the in-market list (it stays listed with filter=all). */
export const NOT_IN_MARKET: ReadonlySet<AccountStatus> = new Set(['disqualified', 'do_not_contact', 'customer']);
/**
 * Whether an account could be in market at all, whatever its score: present in the latest month,
 * a signal in that month or the one before, and a status that allows it (NOT_IN_MARKET).
 */
export function canBeInMarket(s: Pick<StoreSnapshot, 'month' | 'signals'>, latestMonth: string, status: AccountStatus = 'open'): boolean {
  if (s.month !== latestMonth || s.signals.length === 0 || NOT_IN_MARKET.has(status)) return false;
  const recent = previousMonth(latestMonth);
  return s.signals.some((g) => g.month >= recent);
}

/**
 * A ranking's rows as columns, index k the k-th store in store_id order (so a tie on the score
 * goes to the lower index). What accounts/refresh.ts holds for every account in typed memory.
 */
export interface RankColumns {
  score: Float64Array;
  /** The logit at the posterior mode. */
  logit: Float64Array;
  /** The logit's posterior sd. */
  sd: Float64Array;
  /** 1: could be in-market at all (canBeInMarket). */
  eligible: Uint8Array;
  /** 1: has an outcome. */
  labelled: Uint8Array;
}

/** The rows' indices best score first, ties by index (store_id): the ranking's order before the list moves its rows. */
export function scoreOrder(score: Float64Array): Uint32Array {
  const idx = new Uint32Array(score.length);
  for (let k = 0; k < idx.length; k++) idx[k] = k;
  return descendingOrder(score, idx);
}

/** True on a little-endian machine (descendingOrder reads 64-bit values as pairs of 32-bit words). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * `items` (indices into `key`, ascending) ordered by key descending, ties by index: as
 * `items.sort((a, b) => key[b] - key[a] || a - b)`, without calling a comparator for most of
 * them. Each item becomes one 64-bit integer, its key's bits made to order as the key descending
 * with the item in the lowest bits (as many as the largest item needs), sorted natively; items
 * whose keys differ only in those lowest bits (the same integer but for the item) are then put
 * in order among themselves by the comparator.
 */
export function descendingOrder(key: Float64Array, items: Uint32Array): Uint32Array {
  const m = items.length;
  const descending = (a: number, b: number) => key[b] - key[a] || a - b;
  const byComparator = () => Uint32Array.from(items).sort(descending);
  if (!LITTLE_ENDIAN || m < 2) return byComparator();
  let top = 0;
  for (let j = 0; j < m; j++) if (items[j] > top) top = items[j];
  const bits = Math.max(1, Math.ceil(Math.log2(top + 1)));
  const low = bits >= 32 ? 0 : 0xffffffff << bits;
  const packed = new BigUint64Array(m);
  const words = new Uint32Array(packed.buffer);
  const one = new Float64Array(1);
  const oneWords = new Uint32Array(one.buffer);
  for (let j = 0; j < m; j++) {
    const k = items[j];
    const v = key[k];
    // NaN keys compare as ties in the comparator, which orders nothing well: left to it.
    if (Number.isNaN(v)) return byComparator();
    one[0] = v === 0 ? 0 : v; // −0 as 0: the comparator ties them
    let lo = oneWords[0];
    let hi = oneWords[1];
    // The bits ordered as the key ascending (negative keys flipped whole, positive ones their sign), then flipped: descending.
    if (hi & 0x80000000) {
      hi = ~hi;
      lo = ~lo;
    } else hi |= 0x80000000;
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
    words[2 * j] = bits >= 32 ? k : ((lo & low) | k) >>> 0;
    words[2 * j + 1] = hi;
  }
  packed.sort();
  const out = new Uint32Array(m);
  const itemMask = bits >= 32 ? 0xffffffff : ~low >>> 0;
  for (let j = 0; j < m; j++) out[j] = (words[2 * j] & itemMask) >>> 0;
  // Runs whose keys agree but for the item's bits: in item order, which is key order only if their keys tie.
  for (let j = 0; j < m; ) {
    let end = j + 1;
    let sorted = true;
    while (end < m && words[2 * end + 1] === words[2 * j + 1] && (bits >= 32 || ((words[2 * end] & low) >>> 0) === ((words[2 * j] & low) >>> 0))) {
      if (key[out[end]] > key[out[end - 1]]) sorted = false;
      end++;
    }
    if (!sorted) out.subarray(j, end).sort(descending);
    j = end;
  }
  return out;
}

/** The in-market list as columns (selectInMarketColumns): 1 in `inMarket` for each row on it, 1 in `explore` for each explore row. */
export interface ListColumns {
  inMarket: Uint8Array;
  explore: Uint8Array;
  inMarketCount: number;
  /** The explore rows in the order they were picked (highest upper bound first). */
  picks: Uint32Array;
  threshold: number;
}

/**
 * The in-market list: eligible accounts at or above the threshold (the IN_MARKET_QUANTILE score
 * of all accounts, at least IN_MARKET_MIN_SCORE), and explore rows, one for every
 * 1 / EXPLORE_SHARE − 1 of those (at least MIN_EXPLORE), picked by an upper bound (the highest
 * logit + `bound` × sd, EXPLORE_BOUND) from the eligible accounts without an outcome other than the
 * list's best EXPLORE_AFTER of them: further down the list, or below its threshold (these join it).
 * Index k is the k-th store in store_id order; `byScore` is scoreOrder(c.score).
 */
export function selectInMarketColumns(c: RankColumns, byScore: Uint32Array, exploreShare = EXPLORE_SHARE, bound = EXPLORE_BOUND): ListColumns {
  const n = c.score.length;
  const q = n ? ascendingAt(c.score, byScore, Math.min(n - 1, Math.floor(IN_MARKET_QUANTILE * n))) : 1;
  const threshold = Math.max(IN_MARKET_MIN_SCORE, q);
  const inMarket = new Uint8Array(n);
  let inMarketCount = 0;
  for (let k = 0; k < n; k++) if (c.eligible[k] && c.score[k] >= threshold) (inMarket[k] = 1), inMarketCount++;
  const want = exploreShare <= 0 ? 0 : Math.max(MIN_EXPLORE, Math.round((inMarketCount * exploreShare) / (1 - exploreShare)));
  // The list's best EXPLORE_AFTER without an outcome are never explore rows.
  const next = new Uint8Array(n);
  for (let p = 0, taken = 0; p < n && taken < EXPLORE_AFTER; p++) {
    const k = byScore[p];
    if (inMarket[k] && !c.labelled[k]) (next[k] = 1), taken++;
  }
  const upper = new Float64Array(n);
  let m = 0;
  const candidates = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    if (!c.eligible[k] || c.labelled[k] || next[k]) continue;
    upper[k] = c.logit[k] + bound * c.sd[k];
    candidates[m++] = k;
  }
  const picked = descendingOrder(upper, candidates.subarray(0, m));
  const picks = picked.subarray(0, Math.min(want, m));
  // Whether an explore row was in the list already depends on the threshold alone.
  const listedAlready = (k: number) => c.eligible[k] === 1 && c.score[k] >= threshold;
  const explore = new Uint8Array(n);
  for (const k of picks) {
    explore[k] = 1;
    if (!listedAlready(k)) (inMarket[k] = 1), inMarketCount++;
  }
  return { inMarket, explore, inMarketCount, picks, threshold };
}

/**
 * The i-th smallest score (as `Float64Array.from(score).sort()[i]`), read from byScore (best
 * first) rather than sorting the scores again; with a NaN score, which byScore puts nowhere in
 * particular, sorted as before.
 */
function ascendingAt(score: Float64Array, byScore: Uint32Array, i: number): number {
  for (let k = 0; k < score.length; k++) if (Number.isNaN(score[k])) return Float64Array.from(score).sort()[i];
  return score[byScore[score.length - 1 - i]];
}

/**
 * While a workspace has fewer than BOUND_FIRST_UNTIL outcomes, its first explore row in the list's
 * order is the one with the highest upper bound (ListColumns.picks[0]), the others best score
 * first (listOrder): an agency that works a few explore rows a round, the best-scored ones, then
 * works one a round picked for what the model knows least, while its outcomes still set where the
 * model looks. Learning benchmark (in memory, mostly the top, P@50 in the list's order after 200
 * outcomes (worst seed), wins): the two-part rule, seeds 1–15, 0.94 (0.61) → 1.00 (1.00), 103.8 →
 * 106.1 won (one of its two parts was locked out in seeds 6, 12 and 15); the generator's truth,
 * seeds 1–10, 0.68 (0.60) → 0.68 (0.57), 84.7 → 88.9 won. With it in every round the generator's
 * truth fell to 0.65. The other figures are in docs/measurements/learning.md.
 */
export const BOUND_FIRST_UNTIL = 100;
/**
 * Once a workspace has BOUND_FIRST_UNTIL outcomes, its explore rows stand at every
 * EXPLORE_EVERY × LATER_SPREAD-th position among the rows without an outcome (a twentieth of the
 * top positions) instead of every EXPLORE_EVERY-th: the same rows are explore rows and an agency
 * that works them finds them as before (they are marked); a reader of the top meets fewer of them
 * once the model has learnt from a hundred outcomes. Learning benchmark (in memory, generator's
 * truth, mostly the top, seeds 1–10, P@50 of the next 50 in the list's order after 200 outcomes):
 * the explore rows among those 50 held a mean true chance of 0.33 against 0.43 for the others.
 * The figures are in docs/measurements/learning.md.
 */
export const LATER_SPREAD = 2;

/**
 * The in-market list's order: best score first, with the explore rows (best score first among
 * themselves; while fewer than BOUND_FIRST_UNTIL rows have an outcome, the highest upper bound,
 * `list.picks[0]`, first of them) at every `every`-th position among the rows without an outcome
 * (EXPLORE_EVERY; from BOUND_FIRST_UNTIL outcomes on, every `every` × LATER_SPREAD-th), and after
 * the other rows once those run out. A row with an outcome (worked
 * already) keeps the place its score gives it and takes no turn: the agency reads past it, so one
 * in `every` of the rows it has yet to work is an explore row however much of the top it has
 * worked. Only the in-market rows move, among the positions their scores give them, so the whole
 * ranking (filter=all) lists every other account where its score puts it. `every` 0 is score
 * order. Returns the row indices in the ranking's order (position p + 1 holds row `order[p]`);
 * `byScore` is scoreOrder(c.score).
 */
export function listOrder(labelled: Uint8Array, byScore: Uint32Array, list: Pick<ListColumns, 'inMarket' | 'explore'> & { picks?: Uint32Array }, every = EXPLORE_EVERY): Uint32Array {
  const { inMarket, explore } = list;
  const top: number[] = [];
  const picks: number[] = [];
  for (const k of byScore) if (inMarket[k]) (explore[k] ? picks : top).push(k);
  let outcomes = 0;
  for (let k = 0; k < labelled.length; k++) outcomes += labelled[k];
  const first = list.picks?.[0];
  if (every > 0 && first !== undefined && explore[first] && outcomes < BOUND_FIRST_UNTIL) {
    picks.splice(picks.indexOf(first), 1);
    picks.unshift(first);
  }
  const spacing = outcomes < BOUND_FIRST_UNTIL ? every : every * LATER_SPREAD;
  const listed = top.length + picks.length;
  const order = new Uint32Array(listed);
  for (let t = 0, e = 0, open = 0, j = 0; j < listed; ) {
    if (t < top.length && labelled[top[t]]) {
      order[j++] = top[t++];
      continue;
    }
    const turn = t >= top.length || (spacing > 0 && (open + 1) % spacing === 0 && e < picks.length);
    order[j++] = turn ? picks[e++] : top[t++];
    open++;
  }
  const ranked = new Uint32Array(byScore.length);
  for (let p = 0, j = 0; p < byScore.length; p++) ranked[p] = inMarket[byScore[p]] ? order[j++] : byScore[p];
  return ranked;
}


