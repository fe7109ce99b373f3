/**
 * The statistics rules as properties over several generated panels (different seeds, sizes
 * that leave many cells under the floor), checked against figures computed directly from the
 * panel files in plain JavaScript (test/stats/reference-*.ts), not through DuckDB.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS } from '../../src/stats/registry.js';
import { SLUGS, type Stat } from '../../src/stats/types.js';
import { generate, publishPanel, type GenerateSpec } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';
import { monthBefore, readPanel, type Panel } from '../panel/panel-rows.js';
import { DIMS, dimensionOf, expectedFigures, trueCells, type Dim, type TrueCell } from '../stats/reference-cells.js';

const PANELS: Array<GenerateSpec & { name: string }> = [
  { name: '400 stores, seed 11', stores: 400, seed: '11', from: '2026-01', to: '2026-03' },
  { name: '1,200 stores across a year end, seed 12', stores: 1200, seed: '12', from: '2025-11', to: '2026-01' },
  { name: '2,500 stores, seed 13', stores: 2500, seed: '13', from: '2026-05', to: '2026-06' },
];
const FLOOR = 30;
/** Every metric is broken down by country, category and plan (app breakdowns are not checked here). */
const METRIC_KEYS = METRICS.map((m) => m.key);
const REF_KIND = new Map(METRICS.map((m) => [m.key, m.kind]));

interface Published {
  panel: Panel;
  /** month → stat id → stat (every slug) */
  stats: Map<string, Map<string, Stat>>;
}
const dirs = tempDirs('storelens-props-');
const published = new Map<string, Published>();

beforeAll(async () => {
  for (const spec of PANELS) {
    const input = await dirs.make();
    const out = await dirs.make();
    await generate(input, spec);
    const summary = await publishPanel(input, out);
    const stats = new Map<string, Map<string, Stat>>();
    for (const month of summary.months) {
      const byId = new Map<string, Stat>();
      for (const slug of SLUGS) {
        const doc = JSON.parse(await readFile(path.join(out, 'api/data', slug, `${month}.json`), 'utf8'));
        for (const s of doc.stats as Stat[]) byId.set(s.id, s);
      }
      stats.set(month, byId);
    }
    published.set(spec.name, { panel: readPanel(input), stats });
  }
});
afterAll(() => dirs.removeAll());

describe.each(PANELS.map((p) => p.name))('the panel of %s', (name) => {
  const get = () => published.get(name)!;

  it('publishes no stat with n below 30, and a suppressed stat carries no figures', () => {
    const bad: string[] = [];
    for (const [month, stats] of get().stats) {
      for (const s of stats.values()) {
        if (s.suppressed && [s.value, s.n, s.numerator, s.null_rate].some((x) => x !== null)) bad.push(`${month} ${s.id}: suppressed with figures`);
        if (!s.suppressed && (s.n === null || s.n < FLOOR)) bad.push(`${month} ${s.id}: published with n = ${s.n}`);
        if (!s.suppressed && [s.value, s.numerator, s.null_rate].some((x) => x === null)) bad.push(`${month} ${s.id}: published without a figure`);
        if (s.delta?.suppressed && (s.delta.value !== null || s.delta.cohort_n !== null)) bad.push(`${month} ${s.id}: suppressed delta with figures`);
        if (s.delta && !s.delta.suppressed && (s.delta.cohort_n === null || s.delta.cohort_n < FLOOR)) bad.push(`${month} ${s.id}: delta on ${s.delta.cohort_n} stores`);
        if (s.suppressed && s.delta && !s.delta.suppressed) bad.push(`${month} ${s.id}: suppressed stat with a published delta`);
      }
    }
    expect(bad).toEqual([]);
    const all = [...get().stats.values()].flatMap((m) => [...m.values()]);
    expect(all.some((s) => s.suppressed)).toBe(true);
    expect(all.some((s) => !s.suppressed)).toBe(true);
  });

  it('publishes a stat in every month for every cell with stores in any month, and none for the unknown cell', () => {
    const { panel, stats } = get();
    for (const [month, byId] of stats) {
      for (const dim of DIMS) {
        const seen = [...stats.keys()].flatMap((m) => [...trueCells(panel, m, 'active_stores', dim).keys()]);
        const expected = [...new Set(seen)].filter((v) => v !== null).map((v) => dimensionOf(dim, v)).sort();
        const actual = [...byId.values()].filter((s) => s.metric_key === 'active_stores' && s.dimension.startsWith(`${dim}:`)).map((s) => s.dimension).sort();
        expect(actual, `${month} ${dim}`).toEqual(expected);
      }
    }
  });

  it('publishes the n, value, numerator and null_rate a direct computation gives', () => {
    const { panel, stats } = get();
    const bad: string[] = [];
    let checked = 0;
    for (const [month, byId] of stats) {
      for (const key of METRIC_KEYS) {
        for (const dim of [null, ...DIMS]) {
          for (const [value, cell] of trueCells(panel, month, key, dim)) {
            const s = value === null ? undefined : byId.get(`${key}:${dimensionOf(dim, value)}`);
            if (!s || s.suppressed) continue;
            const want = expectedFigures(key, cell, undefined, false);
            const got = { value: s.value, numerator: s.numerator, n: s.n, null_rate: s.null_rate };
            const { delta: _, ...wantFigures } = want;
            if (JSON.stringify(got) !== JSON.stringify(wantFigures)) bad.push(`${month} ${s.id}: ${JSON.stringify(got)} ≠ ${JSON.stringify(wantFigures)}`);
            checked += 1;
          }
        }
      }
    }
    expect(bad.slice(0, 20)).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('publishes the size of each unknown cell anyway, through the methodology known shares', () => {
    const { panel, stats } = get();
    for (const [month, byId] of stats) {
      for (const dim of DIMS) {
        const known = byId.get(`${dim}_known_share:all`)!;
        const unknown = trueCells(panel, month, 'active_stores', dim).get(null)?.n ?? 0;
        expect(known.n! - known.numerator!, `${month} ${dim}`).toBe(unknown);
      }
    }
  });

  it.each(['n', 'cohort_n'] as const)(
    'leaves no hidden cell derivable as the total minus the published cells and the (public) unknown cell (%s)',
    (figure) => {
      const { panel, stats } = get();
      const bad: string[] = [];
      const size = (c: TrueCell) => (figure === 'n' ? c.n : c.cohort);
      const publishedSize = (s: Stat | undefined) =>
        figure === 'n' ? (s && !s.suppressed ? s.n : null) : s?.delta && !s.delta.suppressed ? s.delta.cohort_n : null;
      for (const [month, byId] of stats) {
        for (const key of METRIC_KEYS) {
          const total = publishedSize(byId.get(`${key}:all`));
          if (total === null) continue;
          for (const dim of DIMS) {
            let residual = total;
            const hidden: string[] = [];
            let hiddenSum = 0;
            for (const [value, cell] of trueCells(panel, month, key, dim)) {
              const p = value === null ? size(cell) : publishedSize(byId.get(`${key}:${dimensionOf(dim, value)}`));
              if (p !== null) residual -= p;
              else if (size(cell) > 0) {
                hidden.push(`${value}=${size(cell)}`);
                hiddenSum += size(cell);
              }
            }
            const where = `${month} ${key} by ${dim}: residual ${residual}, hidden [${hidden.join(', ')}]`;
            if (residual !== hiddenSum) bad.push(`${where}: the hidden cells do not add up`);
            if (hidden.length === 1) bad.push(`${where}: one hidden cell is derivable`);
            if (residual !== 0 && residual < FLOOR) bad.push(`${where}: a figure below the floor is derivable`);
          }
        }
      }
      expect(bad.slice(0, 20)).toEqual([]);
    },
  );

  it('computes every published delta on the matched cohort against the previous month', () => {
    const { panel, stats } = get();
    const bad: string[] = [];
    const seen = { count: 0, share: 0, mean: 0 };
    for (const [month, byId] of stats) {
      const prior = monthBefore(month);
      const priorInPanel = panel.has(prior);
      for (const key of METRIC_KEYS) {
        for (const dim of [null, ...DIMS] as Array<Dim | null>) {
          const priorCells = priorInPanel ? trueCells(panel, prior, key, dim) : new Map();
          for (const [value, cell] of trueCells(panel, month, key, dim)) {
            const s = value === null ? undefined : byId.get(`${key}:${dimensionOf(dim, value)}`);
            if (!s) continue;
            if (!priorInPanel) {
              if (s.delta !== null) bad.push(`${month} ${s.id}: a delta without a previous month`);
              continue;
            }
            if (s.delta?.prior_month !== prior) bad.push(`${month} ${s.id}: delta against ${s.delta?.prior_month}`);
            if (!s.delta || s.delta.suppressed) continue;
            const want = expectedFigures(key, cell, priorCells.get(value), true).delta!;
            const got = { value: s.delta.value, cohort_n: s.delta.cohort_n };
            if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`${month} ${s.id}: delta ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
            const kind = REF_KIND.get(key)!;
            seen[kind === 'count' ? 'count' : kind === 'mean' ? 'mean' : 'share'] += 1;
          }
        }
      }
    }
    expect(bad.slice(0, 20)).toEqual([]);
    expect(seen.count).toBeGreaterThan(10);
    expect(seen.share).toBeGreaterThan(10);
    expect(seen.mean).toBeGreaterThan(10);
  });
});
