/** Statistics for the months that need them: load the panel files they depend on, aggregate, build, guard. */
import { previousMonth } from '../panel/columns.js';
import { openDuck } from '../panel/duck.js';
import { loadPanel, type PanelFile } from '../panel/read.js';
import { aggregateMonth, prepareFacts } from '../stats/aggregate.js';
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
    onProgress('joining months');
    await prepareFacts(duck);
    const out = new Map<string, BuiltMonth>();
    const priors = new Map<string, BuiltMonth>();
    for (const m of [...months].sort()) {
      onProgress(`aggregating ${m}`);
      const p = previousMonth(m);
      let prior = out.get(p) ?? priors.get(p);
      if (!prior && byMonth.has(p)) {
        prior = buildMonth(await aggregateMonth(duck, p), undefined, baseUrl);
        priors.set(p, prior);
      }
      const agg = await aggregateMonth(duck, m);
      const built = buildMonth(agg, prior, baseUrl);
      guardMonth(agg, built);
      out.set(m, built);
    }
    return out;
  } finally {
    duck.close();
  }
}

