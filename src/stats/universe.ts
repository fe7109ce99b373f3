/**
 * The cells every month lists (issue 8): a breakdown value seen in any published month gets a
 * row in every month, suppressed where the cell is small, empty cells included. Without it a
 * cell's absence says it had no stores, and then its cohort the month after (no returning
 * stores) is determined exactly. Pure: aggregates in, aggregates out.
 */
import { createHash } from 'node:crypto';
import { DIMENSIONS } from '../core/panel-contract.js';
import { compareValues, emptyCell, type MonthAgg } from './aggregate.js';

/** Breakdown values by dimension (country, category, plan; app cells are not kept by a store). */
export type CellValues = Partial<Record<(typeof DIMENSIONS)[number], string[]>>;

/** The values of one month's cells that hold stores. */
export function valuesOf(agg: MonthAgg): CellValues {
  const out: CellValues = {};
  for (const dim of DIMENSIONS) {
    const values = (agg.groups.get(dim) ?? []).filter((c) => c.value !== null && c.stores > 0).map((c) => c.value!);
    if (values.length) out[dim] = values;
  }
  return out;
}

/** Every value of any of `list`, per dimension, sorted. */
export function unionOf(list: Iterable<CellValues>): CellValues {
  const sets = new Map<(typeof DIMENSIONS)[number], Set<string>>();
  for (const v of list) for (const dim of DIMENSIONS) for (const x of v[dim] ?? []) (sets.get(dim) ?? sets.set(dim, new Set()).get(dim)!).add(x);
  const out: CellValues = {};
  for (const dim of DIMENSIONS) if (sets.get(dim)?.size) out[dim] = [...sets.get(dim)!].sort(compareValues);
  return out;
}

/** A short hash of a universe, for run ids: a value new to the publication changes every month's documents. */
export const universeHash = (u: CellValues): string =>
  createHash('sha256').update(JSON.stringify(DIMENSIONS.map((d) => u[d] ?? []))).digest('hex');

/** `agg` with an empty cell (0 stores) for every value of `universe` it lacks. */
export function withUniverse(agg: MonthAgg, universe: CellValues): MonthAgg {
  const groups = new Map(agg.groups);
  for (const dim of DIMENSIONS) {
    const cells = groups.get(dim) ?? [];
    const have = new Set(cells.map((c) => c.value));
    const missing = (universe[dim] ?? []).filter((v) => !have.has(v));
    if (missing.length === 0) continue;
    groups.set(dim, [...cells, ...missing.map((value) => ({ ...emptyCell(), value }))].sort((a, b) => compareValues(a.value, b.value)));
  }
  return { ...agg, groups };
}
