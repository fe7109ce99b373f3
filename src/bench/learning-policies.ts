/**
 * What the learning benchmark varies besides the seed: how an agency works its list (the
 * policies) and what it is hidden from the service that decides each outcome (the rules).
 *
 * Policies, each round taking ROUND_SIZE unlabelled accounts, the in-market list read in its
 * own order (as GET /accounts lists it), and going on down the whole ranking if it runs short:
 *   - explore first: every unlabelled explore row first, then the list from its top (the
 *     protocol that gives the model the most to learn from);
 *   - mostly top: TOP_EXPLORE explore rows (the first ones in the list's order), then the list
 *     from its top (what an agency does: it works the best accounts and some explore rows).
 *
 * Rules, each a propensity p for every account of the latest month (0 for the others):
 *   - generator truth: the generator's own hidden propensity (`generate --truth`, panel/truth.ts);
 *   - two-part rule: p = 1 when the store meets either of two disjoint conjunctions of inputs
 *     the model has (TWO_PART_RULE), else 0; the model is additive, so it has to find both
 *     parts from the outcomes, and finding one must not make it lose the other.
 */
import type { StoreSnapshot } from '../accounts/model.js';

export const ROUND_SIZE = 25;
/** Explore rows a mostly-top round takes (the rest of the round is the list's top). */
export const TOP_EXPLORE = 5;

export const POLICIES = ['explore first', 'mostly top'] as const;
export type Policy = (typeof POLICIES)[number];

export const RULES = ['generator truth', 'two-part rule'] as const;
export type Rule = (typeof RULES)[number];

/** An account as a policy sees it: the list's rows in the list's order. */
export interface ListRow {
  store_id: string;
  in_market: number;
  explore: number;
}

/** The next round's accounts under `policy` (the rules in the header). */
export function nextRound(policy: Policy, rows: readonly ListRow[], labelled: ReadonlySet<string>, size = ROUND_SIZE): string[] {
  const open = rows.filter((r) => !labelled.has(r.store_id));
  const explore = open.filter((r) => r.in_market && r.explore);
  const first = policy === 'explore first' ? explore : explore.slice(0, TOP_EXPLORE);
  const taken = new Set(first.map((r) => r.store_id));
  const picked = [...first, ...open.filter((r) => r.in_market && !taken.has(r.store_id)), ...open.filter((r) => !r.in_market)];
  return picked.slice(0, size).map((r) => r.store_id);
}

/**
 * The two-part rule: beauty stores using PageFly, or electronics stores using Klaviyo (disjoint:
 * a store has one category). In a panel of 3,600 stores some 40–60 and 90–120 stores of the
 * latest month, so 200 outcomes can use up a part; the starting weighting knows neither
 * conjunction (it weighs an app a little, a category not at all), and each part's app is common
 * outside it (a third of the stores use Klaviyo), so the outcomes of one part's neighbours
 * argue against the other part's decisive input.
 */
export const TWO_PART_RULE: ReadonlyArray<{ category: string; app?: string; ads?: string }> = [
  { category: 'beauty', app: 'pagefly' },
  { category: 'electronics', app: 'klaviyo' },
];

/** Which part of the rule a store meets (its index in TWO_PART_RULE), or -1. */
export function rulePart(s: StoreSnapshot): number {
  return TWO_PART_RULE.findIndex((p) => s.category === p.category && (p.app === undefined || s.apps.includes(p.app)) && (p.ads === undefined || s.ads.includes(p.ads)));
}

/** The rule's propensity of every store: 1 for a store of the latest month that meets a part, else 0. */
export function twoPartTruth(stores: readonly StoreSnapshot[], latestMonth: string): Map<string, number> {
  return new Map(stores.map((s) => [s.store_id, s.month === latestMonth && rulePart(s) >= 0 ? 1 : 0]));
}
