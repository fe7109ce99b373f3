/**
 * The true figures an attack is compared with, counted in plain JavaScript from the panel files
 * (test/panel/panel-rows.ts), independently of what publish computes.
 */
import { ADS, AGENTIC, monthBefore, type Panel, type PanelRow } from '../panel/panel-rows.js';
import { UNKNOWN, type Dim, type Target } from './independent-attacker.js';

/** Share metrics that are one panel flag: their n is the stores checked, their numerator the stores with it. */
const FLAG_OF: Record<string, (typeof ADS)[number] | (typeof AGENTIC)[number]> = {
  ...Object.fromEntries(AGENTIC.map((f) => [`${f}_share`, f])),
  ...Object.fromEntries(ADS.map((f) => [`${f.slice(4)}_ads_share`, f])),
};

/** Three-valued OR and AND of flags, as the definitions state them (unknown when a missing check could change the answer). */
const or = (values: Array<boolean | null>) => (values.includes(true) ? true : values.includes(null) ? null : false);
const and = (values: Array<boolean | null>) => (values.includes(false) ? false : values.includes(null) ? null : true);
/** Share metrics of several flags: a store's answer (null: not counted in n). */
const DERIVED: Record<string, (r: PanelRow) => boolean | null> = {
  any_ads_share: (r) => or(ADS.map((f) => r.flags[f])),
  multi_channel_ads_share: (r) => (ADS.some((f) => r.flags[f] === null) ? null : ADS.filter((f) => r.flags[f]).length >= 2),
  agent_ready_share: (r) => and((['llms_txt', 'product_schema', 'ai_crawlers_allowed'] as const).map((f) => r.flags[f])),
};

/**
 * The true value of a target figure, where this module knows how to count it. An attack asks for
 * the same figures many times (each solve's verdict, each release's difference): a month's rows
 * are grouped by cell once, and each figure is counted once.
 */
export function truthOf(panel: Panel, dim: Dim): (t: Target) => number | undefined {
  const cells = new Map<string, Map<string, PanelRow[]>>();
  const rowsOf = (month: string, cell: string): PanelRow[] => {
    let byCell = cells.get(month);
    if (!byCell) {
      byCell = new Map();
      for (const r of panel.get(month)?.values() ?? []) {
        const key = r[dim] ?? UNKNOWN;
        const list = byCell.get(key);
        if (list) list.push(r);
        else byCell.set(key, [r]);
      }
      cells.set(month, byCell);
    }
    return byCell.get(cell) ?? [];
  };
  const counted = new Map<string, number | undefined>();
  return (t) => {
    const key = `${t.month}\u0000${t.cell}\u0000${t.figure}`;
    if (counted.has(key)) return counted.get(key);
    const value = count(panel, rowsOf(t.month, t.cell), t);
    counted.set(key, value);
    return value;
  };
}

function count(panel: Panel, rows: PanelRow[], t: Target): number | undefined {
  if (t.figure === 'stores') return rows.length;
  if (t.figure === 'returning') {
    const earlier = panel.get(monthBefore(t.month));
    return earlier ? rows.filter((r) => earlier.has(r.store_id)).length : undefined;
  }
  const [part, metric] = t.figure.split(':');
  if (metric === 'new_stores') return rows.filter((r) => r.created_month === t.month).length;
  if (metric === 'new_store_rate') return rows.filter((r) => (part === 'n' ? r.created_month !== null : r.created_month === t.month)).length;
  const derived = DERIVED[metric];
  if (derived) return rows.filter((r) => (part === 'n' ? derived(r) !== null : derived(r) === true)).length;
  const flag = FLAG_OF[metric];
  if (!flag) return undefined;
  return rows.filter((r) => (part === 'n' ? r.flags[flag] !== null : r.flags[flag] === true)).length;
}
