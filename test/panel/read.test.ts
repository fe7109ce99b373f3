/**
 * Reading a panel folder into DuckDB (src/panel/read.ts): the input contract's conversions.
 * Store ids keep every character; dimensions are trimmed, NFC-normalised, countries upper-cased;
 * empty = unknown; the same rows read alike from CSV, NDJSON and Parquet.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lit, openDuck, type Duck } from '../../src/panel/duck.js';
import { listPanel, loadPanel } from '../../src/panel/read.js';
import { aggregateMonths, registerMacros } from '../../src/panel/aggregate.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-read-');
afterEach(() => dirs.removeAll());

async function withPanel<T>(files: Record<string, string>, f: (duck: Duck, dir: string) => Promise<T>): Promise<T> {
  const dir = await dirs.make();
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const duck = await openDuck();
  try {
    await loadPanel(duck, await listPanel(dir));
    return await f(duck, dir);
  } finally {
    duck.close();
  }
}

const CSV = [
  '\ufeffstore_id,country,category,plan,product_count,est_monthly_revenue_usd,apps,ads_meta,llms_txt',
  '00123,us,Cafe\u0301,basic,007,12.5,klaviyo; judgeme ;klaviyo,TRUE,False',
  '=SUM(A1),GB, Café ,  plus  ,1,,,,',
  '" padded ",,"Arts, ""DIY""",,,0.01, ; ,false,true',
].join('\r\n');

describe('loadPanel', () => {
  it('keeps store ids verbatim, leading zeros, formula characters and spaces included', async () => {
    const ids = await withPanel({ '2026-01.csv': CSV }, (duck) => duck.all<{ store_id: string }>('SELECT store_id FROM panel ORDER BY store_id'));
    expect(ids.map((r) => r.store_id)).toEqual([' padded ', '00123', '=SUM(A1)']);
  });

  it('trims and NFC-normalises dimensions and upper-cases countries, so spellings of one value share a cell', async () => {
    const rows = await withPanel({ '2026-01.csv': CSV }, (duck) =>
      duck.all<{ country: string | null; category: string; plan: string | null }>('SELECT country, category, plan FROM panel ORDER BY store_id'),
    );
    expect(rows).toEqual([
      { country: null, category: 'Arts, "DIY"', plan: null },
      { country: 'US', category: 'Café', plan: 'basic' },
      { country: 'GB', category: 'Café', plan: 'plus' },
    ]);
  });

  it('reads empty cells as unknown, booleans in any case, integers and exact decimals', async () => {
    const rows = await withPanel({ '2026-01.csv': CSV }, (duck) =>
      duck.all('SELECT product_count, CAST(est_monthly_revenue_usd AS VARCHAR) AS revenue, ads_meta, llms_txt FROM panel ORDER BY store_id'),
    );
    expect(rows).toEqual([
      { product_count: null, revenue: '0.01', ads_meta: false, llms_txt: true },
      { product_count: '7', revenue: '12.50', ads_meta: true, llms_txt: false },
      { product_count: '1', revenue: null, ads_meta: null, llms_txt: null },
    ]);
  });

  it('splits apps on semicolons, trimmed, distinct and sorted; only an empty cell is unknown', async () => {
    const rows = await withPanel({ '2026-01.csv': CSV }, (duck) => duck.all<{ apps: string[] | null }>('SELECT apps FROM panel ORDER BY store_id'));
    expect(rows.map((r) => r.apps)).toEqual([[], ['judgeme', 'klaviyo'], null]);
  });

  it('reads the same rows from CSV, NDJSON and Parquet', async () => {
    const query = 'SELECT month, store_id, country, category, product_count, ads_meta, apps FROM panel ORDER BY month, store_id';
    const parquetDir = await dirs.make();
    const fromCsv = await withPanel({ '2026-01.csv': CSV }, async (duck, dir) => {
      const parquet = lit(path.join(parquetDir, '2026-01.parquet'));
      await duck.run(`COPY (SELECT * FROM read_csv(${lit(path.join(dir, '2026-01.csv'))}, all_varchar = true)) TO ${parquet} (FORMAT parquet)`);
      return duck.all(query);
    });
    const ndjson = [
      { store_id: '00123', country: 'us', category: 'Cafe\u0301', product_count: 7, apps: 'klaviyo; judgeme ;klaviyo', ads_meta: true },
      { store_id: '=SUM(A1)', country: 'GB', category: ' Café ', product_count: 1, apps: null, ads_meta: null },
      { store_id: ' padded ', country: '', category: 'Arts, "DIY"', product_count: null, apps: ' ; ', ads_meta: false },
    ];
    const fromNdjson = await withPanel({ '2026-01.ndjson': ndjson.map((r) => JSON.stringify(r)).join('\n') + '\n' }, (duck) => duck.all(query));
    const duck = await openDuck();
    try {
      await loadPanel(duck, await listPanel(parquetDir));
      expect(await duck.all(query)).toEqual(fromCsv);
    } finally {
      duck.close();
    }
    expect(fromNdjson).toEqual(fromCsv);
    expect(fromCsv).toHaveLength(3);
  });

  it('reads NDJSON columns that mix strings and numbers as text, without JSON quotes', async () => {
    const lines = [
      { store_id: 1, category: 'apparel', product_count: '007' },
      { store_id: 's2', category: 7, product_count: 3 },
    ];
    const rows = await withPanel({ '2026-01.ndjson': lines.map((l) => JSON.stringify(l)).join('\n') + '\n' }, (duck) =>
      duck.all('SELECT store_id, category, product_count FROM panel ORDER BY store_id'),
    );
    expect(rows).toEqual([
      { store_id: '1', category: 'apparel', product_count: '7' },
      { store_id: 's2', category: '7', product_count: '3' },
    ]);
  });

  it('loads every month of the folder in month order, ignoring files that are not panel files', async () => {
    const months = await withPanel(
      { '2026-02.csv': 'store_id\r\na\r\nb\r\n', '2025-12.csv': 'store_id\r\na\r\n', 'README.md': '# notes', 'notes.txt': '' },
      (duck) => duck.all<{ month: string; stores: string }>('SELECT month, count(*)::VARCHAR AS stores FROM panel GROUP BY month ORDER BY month'),
    );
    expect(months).toEqual([
      { month: '2025-12', stores: '1' },
      { month: '2026-02', stores: '2' },
    ]);
  });
});

describe('months without stores', () => {
  it.each([['alone', ['2026-02']], ['with the empty month', ['2026-01', '2026-02']]])(
    'are no previous month: the month after one, aggregated %s, compares with nothing',
    async (_, months) => {
      const header = CSV.split('\r\n')[0];
      const aggs = await withPanel({ '2026-01.csv': header + '\r\n', '2026-02.csv': CSV }, async (duck) => {
        await registerMacros(duck);
        return aggregateMonths(duck, months);
      });
      if (months.includes('2026-01')) expect(aggs.get('2026-01')!.all.stores).toBe(0);
      const feb = aggs.get('2026-02')!;
      expect(feb.hasPrior).toBe(false);
      expect(feb.all.cohort).toBe(0);
      // "Also active last month" is unknown for every store, not 0% of them.
      expect(feb.all.metrics.get('returning_store_share')).toMatchObject({ e: 3, n: 0, num: 0 });
    },
  );
});

describe('a file that cannot be read, said in words', () => {
  const header = 'store_id,country,category,plan,created_month,product_count,monthly_visits,est_monthly_revenue_usd,apps,ads_meta,ads_google,ads_tiktok,ads_pinterest,llms_txt,product_schema,agent_checkout,mcp_server,ai_crawlers_allowed';
  const row = (id: string, category = 'pets') => `${id},US,${category},basic,2025-01,1,2,3.00,,true,false,false,false,false,false,false,false,false`;
  const csv = [header, row('a', '"Vintage\nCollectibles"'), row('b')].join('\n') + '\n';
  const record = (id: string, extra = '') => JSON.stringify({ store_id: id, country: 'US', category: 'pets', plan: 'basic', created_month: '2025-01', product_count: 1, monthly_visits: 2, est_monthly_revenue_usd: 3, apps: null, ads_meta: true, ads_google: false, ads_tiktok: false, ads_pinterest: false, llms_txt: false, product_schema: false, agent_checkout: false, mcp_server: false, ai_crawlers_allowed: false }).replace(/}$/, `${extra}}`);
  const parquet = async (dir: string): Promise<Buffer> => {
    const duck = await openDuck();
    try {
      await writeFile(path.join(dir, 'src.csv'), csv);
      await duck.run(`COPY (SELECT * FROM read_csv(${lit(path.join(dir, 'src.csv'))}, all_varchar = true)) TO ${lit(path.join(dir, 'p.parquet'))} (FORMAT parquet)`);
      return await readFile(path.join(dir, 'p.parquet'));
    } finally {
      duck.close();
    }
  };

  it.each<[string, string, (dir: string) => Promise<string | Buffer>, RegExp]>([
    // Read on, its header named store_id with NULs between the letters: "the required column store_id is missing (columns: store_id, …)".
    ['UTF-16 without a byte order mark', '2026-01.csv', async () => Buffer.from(csv, 'utf16le'), /2026-01\.csv: not UTF-8 encoded \(UTF-16: a NUL byte beside every letter, without a byte order mark\): save it as UTF-8$/],
    // Was "row 1: record 1 is cut off", and on one line "the required column store_id is missing (columns: json)".
    ['a pretty-printed JSON array', '2026-01.ndjson', async () => `[\n  ${record('a')},\n  ${record('b')}\n]\n`, /2026-01\.ndjson: row 1: the file is a JSON array, where NDJSON has one JSON object per line/],
    ['a JSON array on one line', '2026-01.ndjson', async () => `[${record('a')},${record('b')}]`, /2026-01\.ndjson: row 1: the file is a JSON array, where NDJSON has one JSON object per line/],
    // DuckDB's "JSON transform error … has duplicate key", naming no row a person counts.
    ['a record naming a key twice', '2026-01.ndjson', async () => `${record('a')}\n${record('b', ',"plan":"plus"')}\n`, /2026-01\.ndjson: row 2: record 2 names the key "plan" twice: keep one/],
    // A line `null` read as a row of nulls: "row 2, column store_id: store_id is required and empty".
    ['a record of null', '2026-01.ndjson', async () => `${record('a')}\nnull\n${record('b')}\n`, /2026-01\.ndjson: row 2: record 2 is not a JSON object \(null\): NDJSON has one store object per line$/],
    // The first bad row is said, not a later record of null (the file was read to its end to find it).
    ['an empty store id before a record of null', '2026-01.ndjson', async () => `${record('a')}\n\n${record('')}\n${record('b')}\nnull\n`, /2026-01\.ndjson: row 2, column store_id: must not be empty or only spaces \(and 1 more row/],
    // Was "(null)": JSON.parse reads 1e400 as Infinity, which JSON.stringify writes null.
    ['a record of a number past a double', '2026-01.ndjson', async () => `${record('a')}\n1e400\n`, /2026-01\.ndjson: row 2: record 2 is not a JSON object \(1e400\): NDJSON has one store object per line$/],
    ['a record of null after blank lines', '2026-01.ndjson', async () => `${record('a')}\n\n  \n${record('b')}\nnull\n${record('')}\n`, /2026-01\.ndjson: row 3: record 3 is not a JSON object \(null\): NDJSON has one store object per line$/],
    // DuckDB's "Duplicate struct entry name", naming neither key.
    ['records naming a key in two cases', '2026-01.ndjson', async () => `${record('a')}\n${record('b').replace('"plan"', '"Plan"')}\n`, /2026-01\.ndjson: column "Plan": the records name both "plan" and "Plan", keys that differ only in case/],
    // DuckDB's "The CSV Parser state machine reached an invalid state".
    ['CR line ends and a line feed in a value not quoted', '2026-01.csv', async () => csv.replace(/\n(?=[a-z]|$)/g, '\r').replace('"Vintage\nCollectibles"', 'Vintage\nCollectibles'), /2026-01\.csv: its lines end with a carriage return alone \(CR, .*a line feed \(LF\) stands in a value that is not quoted: save it as CSV with LF or CRLF line ends/],
    // DuckDB's "No magic bytes found at end of file" for all three.
    ['a Parquet file cut short', '2026-01.parquet', async (dir) => (await parquet(dir)).subarray(0, 300), /2026-01\.parquet: not a readable Parquet file: cut short .*deliver the whole file again$/],
    ['a CSV file named .parquet', '2026-01.parquet', async () => csv, /2026-01\.parquet: not a Parquet file \(it does not begin with Parquet's bytes, PAR1/],
    ['an empty Parquet file', '2026-01.parquet', async () => '', /2026-01\.parquet: the file is empty \(0 bytes\)/],
    ['a spreadsheet renamed .csv', '2026-01.csv', async () => Buffer.from('PK\x03\x04\x14\x00\x06\x00', 'latin1'), /2026-01\.csv: a zip archive \(its first bytes are zip's\), such as a spreadsheet \(\.xlsx, \.ods\) renamed: save the sheet as CSV text/],
  ])('refuses %s', async (_what, name, content, message) => {
    const dir = await dirs.make();
    await writeFile(path.join(dir, name), await content(dir));
    await rm(path.join(dir, 'src.csv'), { force: true });
    await rm(path.join(dir, 'p.parquet'), { force: true });
    const duck = await openDuck();
    try {
      await expect(loadPanel(duck, await listPanel(dir))).rejects.toThrow(message);
    } finally {
      duck.close();
    }
  });
});
