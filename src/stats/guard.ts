/**
 * The last check before anything is written: re-derive every hidden cell from the published
 * figures. For each breakdown of each metric, the published total minus the published cells
 * leaves what the hidden cells hold together; that must never pin down one hidden cell, nor
 * be a figure below the floor. Also: no published n below the floor.
 */
import type { MonthAgg } from './aggregate.js';
import type { BuiltMonth } from './build.js';
import { FLOOR } from './suppression.js';
import type { Stat } from './types.js';

export class DisclosureError extends Error {}

const APP_IDENTITY = 'mean_apps_installed';
const sampleSize = (s: Stat) => s.n;

export function guardMonth(agg: MonthAgg, built: BuiltMonth): void {
  const published = new Map<string, Stat>();
  for (const stats of built.stats.values()) for (const s of stats) published.set(s.id, s);

  for (const s of published.values()) {
    if (!s.suppressed && (s.n === null || s.n < FLOOR)) throw new DisclosureError(`${s.id} (${s.month}) would publish n = ${s.n}`);
    if (s.suppressed && (s.value !== null || s.n !== null || s.numerator !== null || s.null_rate !== null)) {
      throw new DisclosureError(`${s.id} (${s.month}) is suppressed but carries figures`);
    }
  }

  for (const [dim, cells] of agg.groups) {
    // App cells overlap (a store runs many apps); what adds up is installs: the total's
    // mean_apps_installed numerator is the sum of the app cells' sizes.
    const metricKeys = dim === 'app' ? [APP_IDENTITY] : [...(cells[0]?.metrics.keys() ?? [])];
    for (const metricKey of metricKeys) {
      const total = published.get(`${metricKey}:all`);
      if (!total || total.suppressed) continue;
      const totalFigure = (f: (s: Stat) => number | null) => (dim === 'app' && f === sampleSize ? total.numerator : f(total));
      const check = (figure: (s: Stat) => number | null, size: (c: (typeof cells)[number]) => number, what: string) => {
        let residual = totalFigure(figure)!;
        let hiddenCells = 0;
        for (const c of cells) {
          // A reader can learn the unknown cell's size (methodology publishes known shares): take it off too.
          if (c.value === null) {
            residual -= size(c);
            continue;
          }
          const s = published.get(`${metricKey}:${dim}:${c.value}`);
          const f = s ? figure(s) : null;
          if (f !== null) residual -= f;
          else if (size(c) > 0) hiddenCells += 1;
        }
        if (hiddenCells === 1 || (hiddenCells > 0 && residual < FLOOR)) {
          throw new DisclosureError(`${metricKey} by ${dim} (${agg.month}): the published ${what} leave ${residual} for ${hiddenCells} hidden cell(s)`);
        }
      };
      check(sampleSize, (c) => c.metrics.get(metricKey)!.n, 'sample sizes');
      if (dim !== 'app' && total.delta && !total.delta.suppressed) {
        check((s) => (s.delta && !s.delta.suppressed ? s.delta.cohort_n : null), (c) => c.metrics.get(metricKey)!.cohort_n, 'cohort sizes');
      }
    }
  }
}
