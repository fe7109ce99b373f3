/**
 * The aggregated cells the statistics are built from: exact integers and decimal sums per
 * metric, cell and month, as plain numbers. The panel edge (panel/aggregate.ts) computes them;
 * everything from here on is pure.
 */
import type { DimensionName } from '../core/panel-contract.js';
import { METRICS } from './registry.js';

/** Sums of one metric in one cell of one month. */
export interface CellAgg {
  /** eligible stores */
  e: number;
  /** eligible stores with a known input */
  n: number;
  /** qualifying count (count, share, rate) or exact sum (mean) */
  num: number;
  /** stores of this cell that were present in the previous month */
  cohort_n: number;
  /** stores eligible with a known input in both months */
  matched: number;
  cur_sum: number;
  prev_sum: number;
}

export interface Cell {
  /** null = unknown value (never published, always counted) */
  value: string | null;
  stores: number;
  /** stores of the cell that were present in the previous month */
  cohort: number;
  metrics: Map<string, CellAgg>;
}

export interface MonthAgg {
  month: string;
  /** whether the calendar-previous month is in the panel */
  hasPrior: boolean;
  all: Cell;
  /** dimension name → cells (including the unknown cell when it has stores) */
  groups: Map<DimensionName, Cell[]>;
}

export function emptyCell(): Cell {
  const metrics = new Map(METRICS.map((m) => [m.key, { e: 0, n: 0, num: 0, cohort_n: 0, matched: 0, cur_sum: 0, prev_sum: 0 }]));
  return { value: null, stores: 0, cohort: 0, metrics };
}

/** Code-point order, unknown last: the same on every machine. */
export function compareValues(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
