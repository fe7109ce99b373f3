/** Statistics for the months that need them: load the panel files they depend on, aggregate, build, guard. */
import { previousMonth } from '../panel/columns.js';
import { openDuck } from '../panel/duck.js';
import { loadPanel, type PanelFile } from '../panel/read.js';
import { aggregateMonths, registerMacros } from '../panel/aggregate.js';
import { buildMonth, type BuiltMonth } from '../stats/build.js';
import { guardMonth } from '../stats/guard.js';

/**
 * Built stats of each requested month. A month's deltas need the previous month, whose trend
 * inputs need the one before: those files are loaded too, so `--month` and `--all` agree.
 */
export async function computeMonths(
  files: PanelFile[],
  months: string[],
  baseUrl: string,
  onProgress: (msg: string) => void,
): Promise<Map<string, BuiltMonth>> {
  const byMonth = new Map(files.map((f) => [f.month, f]));
  const needed = new Set<string>();
  for (const m of months) {
    const p = previousMonth(m);
    for (const x of [m, p, previousMonth(p)]) if (byMonth.has(x)) needed.add(x);
  }
  const duck = await openDuck();
  try {
    const load = [...needed].sort().map((m) => byMonth.get(m)!);
    await loadPanel(duck, load, (f) => onProgress(`reading ${f.name}`));
    await registerMacros(duck);
    // Months whose documents are built, plus the previous months a count delta needs.
    const priorsNeeded = months.map(previousMonth).filter((p) => byMonth.has(p) && !months.includes(p));
    onProgress(`aggregating ${months.length} month(s)`);
    const aggs = await aggregateMonths(duck, [...new Set([...months, ...priorsNeeded])].sort());
    const out = new Map<string, BuiltMonth>();
    const priors = new Map<string, BuiltMonth>();
    for (const p of priorsNeeded) priors.set(p, buildMonth(aggs.get(p)!, undefined, baseUrl));
    for (const m of [...months].sort()) {
      onProgress(`building ${m}`);
      const agg = aggs.get(m)!;
      const built = buildMonth(agg, out.get(previousMonth(m)) ?? priors.get(previousMonth(m)), baseUrl);
      guardMonth(agg, built);
      out.set(m, built);
    }
    return out;
  } finally {
    duck.close();
  }
}

