/**
 * The CSV row rules of src/render/csv.ts (SPEC rule 5, DESIGN.md "Decisions" → CSV), as
 * properties over arbitrary strings and numbers: csv-parse reads back the same cells, text
 * starting with = + - @ tab CR carries exactly one apostrophe more, numbers never do.
 * (Lives beside the stats tests: the render tests folder belongs to the renderer suite.)
 */
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, guardText, renderCsv } from '../../src/render/csv.js';
import type { Stat } from '../../src/stats/types.js';

const FORMULA_START = ['=', '+', '-', '@', '\t', '\r'];

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.tuple(fc.constantFrom(...FORMULA_START, '"', ',', '\n', "'", ' '), fc.string({ maxLength: 20 })).map(([a, b]) => a + b),
);
const number = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const stat = fc
  .record({
    metric_key: text,
    dimension: text,
    month: text,
    methodology_version: text,
    value: maybe(number),
    numerator: maybe(number),
    n: maybe(fc.nat()),
    null_rate: maybe(fc.double({ min: 0, max: 1, noNaN: true })),
    suppressed: fc.boolean(),
    delta: maybe(fc.record({ value: maybe(number), cohort_n: maybe(fc.nat()), suppressed: fc.boolean(), prior_month: fc.constant('2026-01') })),
  })
  .map((s) => ({ ...s, id: 'x', canonical_url: 'u', anchor: 'a', definition: 'd', sentence: 's', citation: 'c' }) as Stat);

const readBack = (csv: string) => parse(csv, { record_delimiter: '\r\n', relax_column_count: false }) as string[][];
const cell = (x: number | boolean | null) => (x === null ? '' : String(x));

describe('guardText', () => {
  it('prefixes exactly the text that starts with = + - @ tab or CR, with one apostrophe', () => {
    fc.assert(
      fc.property(text, (t) => {
        const guarded = guardText(t);
        const dangerous = FORMULA_START.some((c) => t.startsWith(c));
        expect(guarded).toBe(dangerous ? `'${t}` : t);
      }),
    );
  });
});

describe('renderCsv', () => {
  it('reads back with csv-parse as the same cells, text un-prefixed, numbers as their shortest form', () => {
    fc.assert(
      fc.property(fc.array(stat, { maxLength: 8 }), (stats) => {
        const rows = readBack(renderCsv(stats));
        expect(rows[0]).toEqual([...CSV_COLUMNS]);
        expect(rows).toHaveLength(stats.length + 1);
        stats.forEach((s, i) => {
          const r = rows[i + 1];
          const unprefixed = (v: string, original: string) => (guardText(original) !== original ? v.slice(1) : v);
          expect(r[0]).toBe(guardText(s.metric_key));
          expect(r[1]).toBe(guardText(s.dimension));
          expect(r[2]).toBe(guardText(s.month));
          expect(r[11]).toBe(guardText(s.methodology_version));
          expect([unprefixed(r[0], s.metric_key), unprefixed(r[1], s.dimension)]).toEqual([s.metric_key, s.dimension]);
          expect(r.slice(3, 11)).toEqual([
            cell(s.value), cell(s.numerator), cell(s.n), cell(s.null_rate), cell(s.suppressed),
            cell(s.delta?.value ?? null), cell(s.delta?.cohort_n ?? null), cell(s.delta ? s.delta.suppressed : null),
          ]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('never quotes or prefixes a number, negative ones included, and ends every record with CRLF', () => {
    fc.assert(
      fc.property(number, maybe(number), (value, delta) => {
        const s = { metric_key: 'm', dimension: 'all', month: '2026-02', methodology_version: '1.0', value, numerator: value, n: 40, null_rate: 0,
          suppressed: false, delta: { value: delta, cohort_n: 35, suppressed: delta === null, prior_month: '2026-01' } } as unknown as Stat;
        const csv = renderCsv([s]);
        const line = csv.split('\r\n')[1];
        expect(line).toBe(`m,all,2026-02,${value},${value},40,0,false,${delta ?? ''},35,${delta === null},1.0`);
        expect(csv.endsWith('\r\n')).toBe(true);
        expect(csv.split('\r\n')).toHaveLength(3);
      }),
    );
  });

  it('quotes a text cell exactly when it holds a comma, a quote, CR or LF', () => {
    fc.assert(
      fc.property(text, (t) => {
        const s = { metric_key: 'm', dimension: t, month: '2026-02', methodology_version: '1.0', value: null, numerator: null, n: null,
          null_rate: null, suppressed: true, delta: null } as unknown as Stat;
        const line = renderCsv([s]).slice(renderCsv([]).length);
        const g = guardText(t);
        const expected = /[",\r\n]/.test(g) ? `"${g.replaceAll('"', '""')}"` : g;
        expect(line).toBe(`m,${expected},2026-02,,,,,true,,,,1.0\r\n`);
      }),
    );
  });

  it('writes the header alone for no stats, in SPEC order', () => {
    expect(renderCsv([])).toBe(
      'metric_key,dimension,month,value,numerator,n,null_rate,suppressed,delta_value,delta_cohort_n,delta_suppressed,methodology_version\r\n',
    );
  });
});
