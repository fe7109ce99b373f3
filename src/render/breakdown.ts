/**
 * A metric's table as people read it: the published figures, and one line for the hidden ones
 * (how many of each dimension, why, and the first few names), with the full list beside it.
 * The reason is the one the published data supports: a hidden cell has fewer than FLOOR stores
 * or protects one that has, and the page never says which (that would narrow what a reader can
 * work out about the small one). Pure: stats in, plain data out.
 */
import { FLOOR } from '../stats/floor.js';
import type { Stat } from '../stats/types.js';
import { valueLabel } from './format.js';

/** How many names the summary line shows before "and N more". */
const PREVIEW = 5;

const PLURALS: Record<string, [one: string, many: string, heading: string]> = {
  all: ['figure for all stores', 'figures for all stores', ''],
  country: ['country', 'countries', 'Countries'],
  category: ['category', 'categories', 'Categories'],
  plan: ['plan', 'plans', 'Plans'],
  app: ['app', 'apps', 'Apps'],
};

const dimensionName = (stat: Stat): string => (stat.dimension === 'all' ? 'all' : stat.dimension.slice(0, Math.max(0, stat.dimension.indexOf(':'))) || stat.dimension);

function nouns(name: string): [one: string, many: string, heading: string] {
  return PLURALS[name] ?? [`${name} value`, `${name} values`, `${name.charAt(0).toUpperCase()}${name.slice(1)} values`];
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The hidden stats of one dimension, by name. */
export interface HiddenGroup {
  dimension: string;
  /** "Countries"; empty for the figure of all stores (its label says it) */
  heading: string;
  /** "12 countries" */
  count: string;
  /** by name, as people read them */
  items: Array<{ stat: Stat; label: string }>;
}

export interface Breakdown {
  /** published rows: `all` first, then each dimension in the page's order; countries by name */
  shown: Stat[];
  hidden: HiddenGroup[];
  /** "12 countries and 2 plans not published, each with fewer than FLOOR stores or …: Austria, Belgium, … and 9 more."; empty when none */
  summary: string;
  /** whether a published row's change vs the previous month is hidden */
  changesHidden: boolean;
}

/** Countries read by name: a dimension's rows sorted by label where the label is not the value itself. */
function byLabel(stats: Stat[]): Stat[] {
  const out: Stat[] = [];
  const groups = new Map<string, Stat[]>();
  for (const s of stats) {
    const d = dimensionName(s);
    if (!groups.has(d)) groups.set(d, []);
    groups.get(d)!.push(s);
  }
  for (const [d, group] of groups) {
    out.push(...(d === 'country' ? [...group].sort((a, b) => collator.compare(valueLabel(a.dimension), valueLabel(b.dimension)) || (a.dimension < b.dimension ? -1 : 1)) : group));
  }
  return out;
}

function joinAnd(parts: string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export function breakdown(stats: readonly Stat[]): Breakdown {
  const ordered = byLabel([...stats]);
  const shown = ordered.filter((s) => !s.suppressed);
  const hiddenStats = ordered.filter((s) => s.suppressed);
  const groups = new Map<string, Stat[]>();
  for (const s of hiddenStats) {
    const d = dimensionName(s);
    if (!groups.has(d)) groups.set(d, []);
    groups.get(d)!.push(s);
  }
  const hidden: HiddenGroup[] = [...groups].map(([d, list]) => {
    const [one, many, heading] = nouns(d);
    return { dimension: d, heading, count: `${list.length} ${list.length === 1 ? one : many}`, items: list.map((stat) => ({ stat, label: valueLabel(stat.dimension) })) };
  });
  const names = hidden.flatMap((g) => g.items.map((i) => i.label));
  const preview = names.slice(0, PREVIEW).join(', ') + (names.length > PREVIEW ? ` and ${names.length - PREVIEW} more` : '');
  const summary = hidden.length
    ? `${joinAnd(hidden.map((g) => g.count))} not published, ${names.length > 1 ? 'each ' : ''}with fewer than ${FLOOR} stores or hidden to protect one that has: ${preview}.`
    : '';
  return { shown, hidden, summary, changesHidden: shown.some((s) => s.delta?.suppressed === true) };
}
