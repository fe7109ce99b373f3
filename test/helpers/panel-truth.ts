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

/** The true value of a target figure, where this module knows how to count it. */
export function truthOf(panel: Panel, dim: Dim): (t: Target) => number | undefined {
  return (t) => {
    const rows = [...(panel.get(t.month)?.values() ?? [])].filter((r: PanelRow) => (r[dim] ?? UNKNOWN) === t.cell);
    if (t.figure === 'stores') return rows.length;
    if (t.figure === 'returning') {
      const earlier = panel.get(monthBefore(t.month));
      return earlier ? rows.filter((r) => earlier.has(r.store_id)).length : undefined;
    }
    const [part, metric] = t.figure.split(':');
    if (metric === 'new_stores') return rows.filter((r) => r.created_month === t.month).length;
    const flag = FLAG_OF[metric];
    if (!flag) return undefined;
    return rows.filter((r) => (part === 'n' ? r.flags[flag] !== null : r.flags[flag] === true)).length;
  };
}
