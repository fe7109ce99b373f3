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
  return { value, stores, cohort: 0, metrics: new Map(METRICS.map((m) => [m.key, agg()])) };
}

/** A first month (no prior) with countries US 400, GB 120, NO 31, IS 12, MT 5, and 5 unknown. */
function month(): MonthAgg {
  const countries = [cell('GB', 120), cell('IS', 12), cell('MT', 5), cell('NO', 31), cell('US', 400), cell(null, 5)];
  const others = [cell('x', 573)];
  return {
    month: '2026-01',
    hasPrior: false,
    all: cell(null, 573),
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
  it('passes the stats buildMonth makes, with the small countries hidden', () => {
    const agg = month();
    const built = buildMonth(agg, undefined, 'https://stats.example.com');
    expect(() => guardMonth(agg, built)).not.toThrow();
    expect(find(built, 'active_stores:country:IS').suppressed).toBe(true);
    expect(find(built, 'active_stores:country:MT').suppressed).toBe(true);
    expect(find(built, 'active_stores:country:NO').suppressed).toBe(true);
    expect(find(built, 'active_stores:country:GB').suppressed).toBe(false);
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
      tamper(built, 'mean_product_count:country:MT', { [field]: 0.5 });
      expect(() => guardMonth(agg, built), field).toThrow(/mean_product_count:country:MT \(2026-01\) is suppressed but carries figures/);
    }
  });

  it('refuses a breakdown whose single hidden cell is the total minus the published cells and the unknown cell', () => {
    // The unknown cell's size is public (methodology publishes known shares): it protects nothing.
    const agg = month();
    agg.groups.set('country', [cell('GB', 120), cell('US', 400), cell('ZZ', 12), cell(null, 41)]);
    const built = buildMonth(agg, undefined, 'https://stats.example.com');
    expect(() => guardMonth(agg, built)).not.toThrow();
    expect(find(built, 'active_stores:country:GB').suppressed).toBe(true);
    for (const m of METRICS) tamper(built, `${m.key}:country:GB`, { suppressed: false, value: 60, numerator: 60, n: 120, null_rate: 0 });
    expect(() => guardMonth(agg, built)).toThrow(/by country \(2026-01\): the published figures leave 12 for 1 hidden cell\(s\)/);
  });

  it('refuses hidden cells that together hold fewer stores than the floor', () => {
    const agg = month();
    const built = buildMonth(agg, undefined, 'https://stats.example.com');
    // Publish NO (31, hidden to protect IS and MT): IS (12) and MT (5) remain, 17 stores between them.
    for (const m of METRICS) tamper(built, `${m.key}:country:NO`, { suppressed: false, value: 15, numerator: 15, n: 31, null_rate: 0 });
    expect(() => guardMonth(agg, built)).toThrow(/leave 17 for 2 hidden cell\(s\)/);
  });

  it('ignores breakdowns whose total is itself suppressed', () => {
    const agg: MonthAgg = { ...month(), all: cell(null, 25) };
    agg.groups.set('country', [cell('US', 20), cell(null, 5)]);
    const built = buildMonth(agg, undefined, 'https://stats.example.com');
    expect(find(built, 'active_stores:all').suppressed).toBe(true);
    expect(() => guardMonth(agg, built)).not.toThrow();
  });
});
