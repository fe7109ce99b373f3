/**
 * The last check before anything is written (src/stats/guard.ts): on a hand-built month, the
 * stats buildMonth makes pass the guard, and every hand-made leak is refused with DisclosureError.
 */
import { describe, expect, it } from 'vitest';
import type { Cell, CellAgg, MonthAgg } from '../../src/stats/aggregate.js';
import { buildMonth, type BuiltMonth } from '../../src/stats/build.js';
import { DisclosureError, guardMonth } from '../../src/stats/guard.js';
import { METRICS } from '../../src/stats/registry.js';
import type { Stat } from '../../src/stats/types.js';

/** A cell whose every metric has `stores` eligible stores, all known, half qualifying. */
function cell(value: string | null, stores: number): Cell {
  const agg = (): CellAgg => ({ e: stores, n: stores, num: Math.floor(stores / 2), cohort_n: 0, matched: 0, cur_sum: 0, prev_sum: 0 });
  return { value, stores, metrics: new Map(METRICS.map((m) => [m.key, agg()])) };
}

/** A first month (no prior) with countries US 400, GB 120, IS 12, LU 20, and 10 unknown. */
function month(): MonthAgg {
  const countries = [cell('GB', 120), cell('IS', 12), cell('LU', 20), cell('US', 400), cell(null, 10)];
  const others = [cell('x', 562)];
  return {
    month: '2026-01',
    hasPrior: false,
    all: cell(null, 562),
    groups: new Map([
      ['country', countries],
      ['category', others],
      ['plan', others],
      ['app', []],
    ]),
  };
}

const find = (built: BuiltMonth, id: string): Stat => [...built.stats.values()].flat().find((s) => s.id === id)!;
/** Replaces one stat (every slug holding it) with `patch` applied. */
function tamper(built: BuiltMonth, id: string, patch: Partial<Stat>): void {
  for (const stats of built.stats.values()) {
    const i = stats.findIndex((s) => s.id === id);
    if (i >= 0) stats[i] = { ...stats[i], ...patch };
  }
}

describe('guardMonth', () => {
  it('passes the stats buildMonth makes, with the small countries and the unknown cell hidden', () => {
    const agg = month();
    const built = buildMonth(agg, undefined, 'https://stats.example.com');
    expect(() => guardMonth(agg, built)).not.toThrow();
    expect(find(built, 'active_stores:country:IS').suppressed).toBe(true);
    expect(find(built, 'active_stores:country:LU').suppressed).toBe(true);
    expect(find(built, 'active_stores:country:US').n).toBe(400);
  });

  it('refuses a published stat with n below the floor', () => {
    const agg = month();
    const built = buildMonth(agg, undefined, 'https://stats.example.com');
    tamper(built, 'active_stores:country:IS', { suppressed: false, value: 12, numerator: 12, n: 12, null_rate: 0 });
    expect(() => guardMonth(agg, built)).toThrow(DisclosureError);
    expect(() => guardMonth(agg, built)).toThrow(/active_stores:country:IS \(2026-01\) would publish n = 12/);
  });

  it('refuses a suppressed stat that still carries a figure', () => {
    for (const field of ['value', 'n', 'numerator', 'null_rate'] as const) {
      const agg = month();
      const built = buildMonth(agg, undefined, 'https://stats.example.com');
      tamper(built, 'mean_product_count:country:LU', { [field]: 0.5 });
      expect(() => guardMonth(agg, built), field).toThrow(/mean_product_count:country:LU \(2026-01\) is suppressed but carries figures/);
    }
  });

  it('refuses a breakdown whose single hidden cell is the total minus the published cells', () => {
    // ZZ (32) is hidden only to protect the unknown cell (10); publishing it leaves the 10 derivable.
    const agg = month();
    agg.groups.set('country', [cell('GB', 120), cell('US', 400), cell('ZZ', 32), cell(null, 10)]);
    const built = buildMonth(agg, undefined, 'https://stats.example.com');
    expect(() => guardMonth(agg, built)).not.toThrow();
    for (const m of METRICS) tamper(built, `${m.key}:country:ZZ`, { suppressed: false, value: 16, numerator: 16, n: 32, null_rate: 0 });
    expect(() => guardMonth(agg, built)).toThrow(/by country \(2026-01\): the published sample sizes leave 10 for 1 hidden cell\(s\)/);
  });

  it('refuses hidden cells that together hold fewer stores than the floor', () => {
    const agg = month();
    const built = buildMonth(agg, undefined, 'https://stats.example.com');
    // Publish LU (20): IS (12) and the unknown cell (10) remain, 22 stores between them.
    for (const m of METRICS) tamper(built, `${m.key}:country:LU`, { suppressed: false, value: 10, numerator: 10, n: 20, null_rate: 0 });
    expect(() => guardMonth(agg, built)).toThrow(DisclosureError);
  });

  it('ignores breakdowns whose total is itself suppressed', () => {
    const agg: MonthAgg = { ...month(), all: cell(null, 25) };
    agg.groups.set('country', [cell('US', 20), cell(null, 5)]);
    const built = buildMonth(agg, undefined, 'https://stats.example.com');
    expect(find(built, 'active_stores:all').suppressed).toBe(true);
    expect(() => guardMonth(agg, built)).not.toThrow();
  });
});
