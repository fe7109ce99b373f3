/**
 * True cell figures of a month, computed in JavaScript from the panel files (see
 * reference-metrics.ts), and the stat a cell should publish when it is not suppressed.
 */
import { METRICS } from '../../src/stats/registry.js';
import type { Panel } from '../panel/panel-rows.js';
import type { Delta, Stat } from '../../src/stats/types.js';
import { cellOf, contexts, inputOf, priorContext, REFERENCE, roundAs } from './reference-metrics.js';

export type Dim = 'country' | 'category' | 'plan';
export const DIMS: readonly Dim[] = ['country', 'category', 'plan'];

export interface TrueCell {
  /** stores in the cell (every metric is eligible for every store) */
  e: number;
  /** stores with a known input (a count: every store) */
  n: number;
  /** qualifying stores, or the exact sum in 1/scale units */
  sum: number;
  /** stores of the cell present in the previous month */
  cohort: number;
  /** stores with a known input in both months */
  matched: number;
  curSum: number;
  prevSum: number;
}

const memo = new WeakMap<Panel, Map<string, Map<string | null, TrueCell>>>();

/** Cell value (null = unknown) → figures; `dim` null is the `all` cell. Memoised per panel. */
export function trueCells(panel: Panel, month: string, metricKey: string, dim: Dim | null): Map<string | null, TrueCell> {
  if (!memo.has(panel)) memo.set(panel, new Map());
  const cache = memo.get(panel)!;
  const id = `${month}|${metricKey}|${dim}`;
  if (!cache.has(id)) cache.set(id, computeCells(panel, month, metricKey, dim));
  return cache.get(id)!;
}

function computeCells(panel: Panel, month: string, metricKey: string, dim: Dim | null): Map<string | null, TrueCell> {
  const ref = REFERENCE[metricKey];
  const out = new Map<string | null, TrueCell>();
  for (const c of contexts(panel, month)) {
    const key = dim === null ? 'all' : cellOf(c.row, dim);
    let cell = out.get(key);
    if (!cell) out.set(key, (cell = { e: 0, n: 0, sum: 0, cohort: 0, matched: 0, curSum: 0, prevSum: 0 }));
    const x = inputOf(metricKey, c);
    cell.e += 1;
    if (ref.kind === 'count' || x !== null) cell.n += 1;
    cell.sum += x ?? 0;
    if (!c.prev) continue;
    cell.cohort += 1;
    const before = priorContext(panel, c);
    const p = before ? inputOf(metricKey, before) : null;
    if (x !== null && p !== null) {
      cell.matched += 1;
      cell.curSum += x;
      cell.prevSum += p;
    }
  }
  return out;
}

/** Dimension string of a cell, as published. */
export const dimensionOf = (dim: Dim | null, value: string | null): string => (dim === null ? 'all' : `${dim}:${value}`);

/**
 * The figures a published (not suppressed) stat must carry. `priorCell` is the same cell one
 * month earlier (for a count's delta); `priorInPanel` whether the calendar-previous month exists.
 */
/** Metrics whose delta compares whole cells (the registry says so): this month's value minus last month's. */
const WHOLE_CELL_DELTA = new Set(METRICS.filter((m) => m.delta === 'cell').map((m) => m.key));

export function expectedFigures(
  metricKey: string,
  cell: TrueCell,
  priorCell: TrueCell | undefined,
  priorInPanel: boolean,
): Pick<Stat, 'value' | 'numerator' | 'n' | 'null_rate'> & { delta: Pick<Delta, 'value' | 'cohort_n'> | null } {
  const { kind, digits, scale = 1 } = REFERENCE[metricKey];
  const value = kind === 'count' ? cell.sum : roundAs(cell.sum / scale / cell.n, digits);
  const delta = !priorInPanel
    ? null
    : {
        value:
          kind === 'count'
            ? cell.sum - (priorCell?.sum ?? NaN)
            : WHOLE_CELL_DELTA.has(metricKey)
              ? roundAs(cell.sum / scale / cell.n - (priorCell ? priorCell.sum / scale / priorCell.n : NaN), digits)
              : roundAs((cell.curSum / scale - cell.prevSum / scale) / cell.matched, digits),
        cohort_n: cell.cohort,
      };
  return {
    value,
    numerator: roundAs(cell.sum / scale, 2),
    n: cell.n,
    null_rate: kind === 'count' || cell.e === 0 ? 0 : roundAs((cell.e - cell.n) / cell.e, 4),
    delta,
  };
}
