/**
 * The last check before anything is written: re-derive every hidden cell from the published
 * figures. A breakdown's cells add up to its total, so the published total minus the published
 * cells (and minus the unknown cell, whose size is public) is what the hidden cells hold
 * together: that must never pin down a single hidden cell, nor be a figure below the floor.
 * Checked for each metric's n and delta cohort, and across metrics for the figures they share
 * (store counts, cohort sizes, the n of a group). Also: no published n below the floor.
 */
import type { Cell, MonthAgg } from './aggregate.js';
import type { BuiltMonth } from './build.js';
import { METRICS } from './registry.js';
import { FLOOR } from './suppression.js';
import type { Stat } from './types.js';

export class DisclosureError extends Error {
  constructor(
    message: string,
    /** what the published figures give away is a cohort (a delta's cohort_n): hiding the total's cohort protects it */
    readonly cohort = false,
  ) {
    super(message);
  }
}

/** App cells overlap; what adds up is installs: this total's numerator is the sum of the app cells' sizes. */
const APP_IDENTITY = 'mean_apps_installed';

export function guardMonth(agg: MonthAgg, built: BuiltMonth): void {
  const stats = new Map<string, Stat>();
  for (const list of built.stats.values()) for (const s of list) stats.set(s.id, s);

  for (const s of stats.values()) {
    if (!s.suppressed && (s.n === null || s.n < FLOOR)) throw new DisclosureError(`${s.id} (${s.month}) would publish n = ${s.n}`);
    if (s.suppressed && (s.value !== null || s.n !== null || s.numerator !== null || s.null_rate !== null)) {
      throw new DisclosureError(`${s.id} (${s.month}) is suppressed but carries figures`);
    }
  }

  const n = (s: Stat | undefined) => (s && !s.suppressed ? s.n : null);
  const cohort = (s: Stat | undefined) => (s?.delta && !s.delta.suppressed ? s.delta.cohort_n : null);

  for (const [dim, cells] of agg.groups) {
    const metrics = METRICS.filter((m) => cells.some((c) => c.value !== null && stats.has(`${m.key}:${dim}:${c.value}`)));
    const stat = (key: string, c: Cell) => stats.get(`${key}:${dim}:${c.value}`);
    /** Fails when what the hidden cells hold together gives one away or is below the floor. */
    const check = (what: string, total: number | null, published: (c: Cell) => number | null, size: (c: Cell) => number, cohort = false) => {
      if (total === null) return;
      let residual = total;
      let hidden = 0;
      for (const c of cells) {
        const figure = c.value === null ? size(c) : published(c);
        if (figure !== null) residual -= figure;
        else if (size(c) > 0) hidden += 1;
      }
      if (hidden === 1 || (hidden > 0 && residual < FLOOR)) {
        throw new DisclosureError(`${what} by ${dim} (${agg.month}): the published figures leave ${residual} for ${hidden} hidden cell(s)`, cohort);
      }
    };
    const anyOf = (keys: string[], figure: (s: Stat | undefined) => number | null, size: (c: Cell) => number) => (c: Cell) =>
      keys.some((k) => figure(stat(k, c)) !== null) ? size(c) : null;

    if (dim === 'app') {
      const installs = stats.get(`${APP_IDENTITY}:all`);
      const keys = metrics.map((m) => m.key);
      check('app sizes', installs && !installs.suppressed ? installs.numerator : null, anyOf(keys, n, (c) => c.stores), (c) => c.stores);
      continue;
    }
    for (const m of metrics) {
      const size = (c: Cell) => c.metrics.get(m.key)!.n;
      check(`${m.key} n`, n(stats.get(`${m.key}:all`)), (c) => n(stat(m.key, c)), size);
      check(`${m.key} cohort`, cohort(stats.get(`${m.key}:all`)), (c) => cohort(stat(m.key, c)), (c) => c.metrics.get(m.key)!.cohort_n, true);
    }
    const keys = metrics.filter((m) => !m.eligible).map((m) => m.key);
    const anyTotal = (figure: (s: Stat | undefined) => number | null) => keys.map((k) => figure(stats.get(`${k}:all`))).find((x) => x !== null) ?? null;
    check('store counts', n(stats.get('active_stores:all')), anyOf(keys, n, (c) => c.stores), (c) => c.stores);
    check('cohort sizes', anyTotal(cohort), anyOf(keys, cohort, (c) => c.cohort), (c) => c.cohort, true);
    const groups = new Map<string, string[]>();
    for (const m of metrics) if (m.group) groups.set(m.group, [...(groups.get(m.group) ?? []), m.key]);
    for (const [group, members] of groups) {
      const size = (c: Cell) => c.metrics.get(members[0])!.n;
      check(`${group} group n`, members.map((k) => n(stats.get(`${k}:all`))).find((x) => x !== null) ?? null, anyOf(members, n, size), size);
    }
  }
}
