/**
 * Secondary suppression (DESIGN.md "Statistics rules"). Cells of one breakdown add up to the
 * published total, so a single hidden cell could be recovered by subtraction. A breakdown is
 * safe when it hides no cell with stores in it, or hides at least two such cells holding at
 * least `floor` stores together; until then the smallest published cell is hidden too.
 */

import { FLOOR } from './floor.js';

export { FLOOR };

/**
 * The key of the cell of stores whose dimension value is unknown. It is never published, yet its
 * size is no secret (the methodology page publishes how many stores have a known country,
 * category and plan), so it protects nothing: callers leave it out of the cells they protect.
 */
export const UNKNOWN = '\u0000unknown';

export interface SizedCell {
  key: string;
  /** the additive figure a reader could subtract: n, or a delta's cohort_n */
  n: number;
}

const byKey = (a: SizedCell, b: SizedCell) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Whether the hidden cells of a breakdown are safe from subtraction. */
export function isProtected(cells: readonly SizedCell[], hidden: ReadonlySet<string>, floor = FLOOR): boolean {
  const h = cells.filter((c) => hidden.has(c.key) && c.n > 0);
  return h.length === 0 || (h.length >= 2 && h.reduce((s, c) => s + c.n, 0) >= floor);
}

/** `hidden` widened with the fewest, smallest cells that make the breakdown safe. */
export function protect(cells: readonly SizedCell[], hidden: ReadonlySet<string>, floor = FLOOR): Set<string> {
  const out = new Set(hidden);
  const candidates = cells.filter((c) => c.n > 0).sort((a, b) => a.n - b.n || byKey(a, b));
  while (!isProtected(cells, out, floor)) {
    const next = candidates.find((c) => !out.has(c.key));
    if (!next) break;
    out.add(next.key);
  }
  return out;
}

/** Cells below the floor. */
export function primary(cells: readonly SizedCell[], floor = FLOOR): Set<string> {
  return new Set(cells.filter((c) => c.n < floor).map((c) => c.key));
}
