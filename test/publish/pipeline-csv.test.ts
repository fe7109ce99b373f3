/**
 * The published CSV series read back the way its users read it (DuckDB `read_csv` with
 * all_varchar, and csv-parse) agree with the JSON documents; the file follows SPEC's CSV row
 * and DESIGN.md's CSV decisions: header in SPEC order, CRLF, RFC 4180 quoting, booleans
 * true/false, empty cell for null, numbers never prefixed or quoted, the formula prefix on text.
 */
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lit, openDuck } from '../../src/panel/duck.js';
import { SLUGS, type Slug, type Stat } from '../../src/stats/types.js';
import { publishPanel, readCsv, readDocument } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';

const HEADER = 'metric_key,dimension,month,value,numerator,n,null_rate,suppressed,delta_value,delta_cohort_n,delta_suppressed,methodology_version';
const TEXT_COLUMNS = new Set(['metric_key', 'dimension', 'month', 'methodology_version']);
const MONTHS = ['2026-08', '2026-09', '2026-10'];

const dirs = tempDirs('storelens-csv-');
let out: string;
/** slug → every stat of every month */
const series = new Map<Slug, Stat[]>();

beforeAll(async () => {
  out = await dirs.make();
  await publishPanel(path.resolve('fixtures/panel'), out);
  for (const slug of SLUGS) {
    const docs = await Promise.all(MONTHS.map((m) => readDocument(out, slug, m)));
    series.set(slug, docs.flatMap((d) => d.stats));
  }
});
afterAll(() => dirs.removeAll());

/** The cells a stat's CSV row must hold once read back: text as is (prefix removed), null as ''. */
function expectedRow(s: Stat): Record<string, string> {
  const cell = (x: number | boolean | null) => (x === null ? '' : String(x));
  return {
    metric_key: s.metric_key,
    dimension: s.dimension,
    month: s.month,
    value: cell(s.value),
    numerator: cell(s.numerator),
    n: cell(s.n),
    null_rate: cell(s.null_rate),
    suppressed: cell(s.suppressed),
    delta_value: cell(s.delta?.value ?? null),
    delta_cohort_n: cell(s.delta?.cohort_n ?? null),
    delta_suppressed: cell(s.delta ? s.delta.suppressed : null),
    methodology_version: s.methodology_version,
  };
}
const unprefix = (row: Record<string, string>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, TEXT_COLUMNS.has(k) && /^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v]));
const keyOf = (r: Record<string, string>) => JSON.stringify([r.metric_key, r.dimension, r.month]);
const byKey = (rows: Array<Record<string, string>>) => new Map(rows.map((r) => [keyOf(r), r]));

describe.each(SLUGS)('the CSV series of %s', (slug) => {
  it('starts with the header in SPEC order and ends every record with CRLF', async () => {
    const text = await readCsv(out, slug);
    expect(text.startsWith(`${HEADER}\r\n`)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const outsideQuotes = text.replace(/"(?:[^"]|"")*"/g, 'Q');
    expect(outsideQuotes).not.toMatch(/[^\r]\n|\r[^\n]/);
  });

  it('holds one row per stat and month, in metric, dimension, month order, with the JSON values (csv-parse)', async () => {
    const rows = parse(await readCsv(out, slug), { columns: true, record_delimiter: '\r\n' }) as Array<Record<string, string>>;
    const stats = series.get(slug)!;
    expect(rows).toHaveLength(stats.length);
    const got = byKey(rows.map(unprefix));
    for (const s of stats) expect(got.get(keyOf(expectedRow(s))), s.id).toEqual(expectedRow(s));
    const months = rows.filter((r) => r.metric_key === rows[0].metric_key && r.dimension === 'all').map((r) => r.month);
    expect(months).toEqual(MONTHS);
  });

  it('reads back through DuckDB read_csv (all_varchar) with the JSON values, null as empty', async () => {
    const duck = await openDuck();
    try {
      const file = path.join(out, 'api', 'data', `${slug}.csv`);
      const rows = await duck.all<Record<string, string | null>>(
        `SELECT * FROM read_csv(${lit(file)}, header = true, all_varchar = true, delim = ',', quote = '"', escape = '"', new_line = '\\r\\n')`,
      );
      const stats = series.get(slug)!;
      expect(rows).toHaveLength(stats.length);
      expect(Object.keys(rows[0])).toEqual(HEADER.split(','));
      const got = byKey(rows.map((r) => unprefix(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? ''])))));
      for (const s of stats) expect(got.get(keyOf(expectedRow(s))), s.id).toEqual(expectedRow(s));
    } finally {
      duck.close();
    }
  });

  it('quotes only cells that need it, prefixes text cells starting with = + - @ tab CR, and never a number', async () => {
    const cells = parse(await readCsv(out, slug), {
      record_delimiter: '\r\n',
      cast: (value, ctx) => ({ value, quoted: ctx.quoting, column: HEADER.split(',')[ctx.index] }),
    }) as unknown as Array<Array<{ value: string; quoted: boolean; column: string }>>;
    const bad: string[] = [];
    let negatives = 0;
    for (const row of cells.slice(1)) {
      for (const c of row) {
        if (c.quoted !== /[",\r\n]/.test(c.value)) bad.push(`${c.column} ${JSON.stringify(c.value)} quoted=${c.quoted}`);
        if (TEXT_COLUMNS.has(c.column)) {
          const original = /^'[=+\-@\t\r]/.test(c.value) ? c.value.slice(1) : c.value;
          const guarded = /^[=+\-@\t\r]/.test(original) ? `'${original}` : original;
          if (c.value !== guarded) bad.push(`${c.column} ${JSON.stringify(c.value)} should read ${JSON.stringify(guarded)}`);
        } else if (c.value !== '' && !['true', 'false'].includes(c.value)) {
          if (String(Number(c.value)) !== c.value) bad.push(`${c.column} ${JSON.stringify(c.value)} is not a plain number`);
          if (c.value.startsWith('-')) negatives += 1;
        }
      }
    }
    expect(bad.slice(0, 10)).toEqual([]);
    const negativeInJson = series.get(slug)!.flatMap((s) => [s.value, s.numerator, s.null_rate, s.delta?.value ?? null]).filter((x) => x !== null && x < 0);
    expect(negatives).toBe(negativeInJson.length);
  });
});

describe('hostile dimension values in the CSV', () => {
  it('carries negative deltas as plain numbers somewhere in the series', async () => {
    const text = await readCsv(out, 'platform-stores');
    expect(text).toMatch(/,-\d+(\.\d+)?,\d+,false,/);
    expect(text).not.toMatch(/,'-\d/);
  });

  it('keeps commas, quotes, newlines and leading formula characters of category names intact', async () => {
    const rows = parse(await readCsv(out, 'platform-stores'), { columns: true, record_delimiter: '\r\n' }) as Array<Record<string, string>>;
    const dims = new Set(rows.map((r) => r.dimension));
    for (const d of ['category:Arts, Crafts & "DIY"', 'category:Vintage\nCollectibles', 'category:=HYPERLINK("http://x.test","deals")', 'category:-Outlet', 'category:Café & Thé']) {
      expect(dims.has(d), d).toBe(true);
    }
  });
});
