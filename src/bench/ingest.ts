/**
 * The ingest benchmark: `ingestRuns` of N stores × M months of contract-shaped runs into a fresh
 * SQLite file, against the floor: the same rows, read from the same Parquet files by the same
 * DuckDB, inserted by one prepared single-row statement in one transaction per table (no checks,
 * no chunking, no lease, no flip). The runs are generated once with DuckDB and cached.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../compose/database.js';
import { ingestRuns } from '../ingest/ingest.js';
import { lit, openDuck, type Duck } from '../panel/duck.js';
import { AD_COLUMNS, AGENTIC_COLUMNS, monthRange } from '../core/panel-contract.js';

export interface IngestBenchOptions {
  stores: number;
  from: string;
  to: string;
  /** folder caching the generated runs between benchmark runs */
  dataDir: string;
  log: (line: string) => void;
}

export interface IngestBenchResult {
  months: number;
  stores: number;
  signals: number;
  generateSeconds: number | null;
  ingestSeconds: number;
  floorSeconds: number;
  ratio: number;
}

const seconds = (t0: number) => (performance.now() - t0) / 1000;

export async function benchIngest(o: IngestBenchOptions): Promise<IngestBenchResult> {
  const months = monthRange(o.from, o.to);
  const runs = path.join(o.dataDir, `runs-${o.stores}-${o.from}-${o.to}`);
  let generateSeconds: number | null = null;
  if (!(await stat(path.join(runs, 'index.json')).then(() => true, () => false))) {
    o.log(`writing runs of ${o.stores.toLocaleString('en-US')} stores × ${months.length} months into ${runs} …`);
    const t0 = performance.now();
    await writeBenchRuns(runs, o.stores, months);
    generateSeconds = seconds(t0);
  }
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-ingest-'));
  try {
    o.log('ingest …');
    const db = await openDatabase({ dbPath: path.join(tmp, 'ingest.db') });
    let t0 = performance.now();
    let summary;
    try {
      summary = await ingestRuns(db, runs, { now: () => new Date() });
    } finally {
      await db.close();
    }
    const ingestSeconds = seconds(t0);

    o.log('floor: one prepared statement, one transaction per table …');
    const floorFile = path.join(tmp, 'floor.db');
    await (await openDatabase({ dbPath: floorFile })).close(); // the same tables and indexes
    t0 = performance.now();
    await floorInsert(floorFile, runs, months);
    const floorSeconds = seconds(t0);
    return { months: summary.months.length, stores: summary.stores, signals: summary.signals, generateSeconds, ingestSeconds, floorSeconds, ratio: ingestSeconds / floorSeconds };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

const runIdOf = (stores: number, month: string) => createHash('sha256').update(`bench-${stores}-${month}`).digest('hex');

/** Contract runs (the stores a panel file, as publish copies it): every store present every month, features varying by month; a signal for one store in ten. */
export async function writeBenchRuns(runs: string, stores: number, months: readonly string[]): Promise<void> {
  const duck = await openDuck();
  const index: Record<string, string> = {};
  try {
    for (const [m, month] of months.entries()) {
      const runId = runIdOf(stores, month);
      const dir = path.join(runs, month, runId);
      const tmp = `${dir}.tmp`;
      await rm(tmp, { recursive: true, force: true });
      await mkdir(tmp, { recursive: true });
      await duck.run(
        `COPY (SELECT 's' || lpad(i::VARCHAR, 8, '0') AS store_id, 'shop' || i || '.example.com' AS domain, ` +
          `['US','GB','DE','FR','CA'][1 + i % 5] AS country, ['apparel','beauty','home','food'][1 + i % 4] AS category, ` +
          `['basic','grow','advanced','plus'][1 + (i + ${m}) % 4] AS plan, '2024-01' AS created_month, ` +
          `(10 + (i * 7 + ${m}) % 900)::BIGINT AS product_count, (1000 + (i * 13 + ${m} * 17) % 200000)::BIGINT AS monthly_visits, ` +
          `(100 + (i * 31 + ${m}) % 50000)::DECIMAL(18,2) AS est_monthly_revenue_usd, ` +
          `CASE WHEN i % 2 = 0 THEN 'klaviyo;yotpo' ELSE '' END AS apps, ` +
          `${AD_COLUMNS.map((c) => `${['ads_meta', 'ads_google'].includes(c) ? `(i + ${m}) % 5 = 0` : 'FALSE'} AS ${c}`).join(', ')}, ` +
          `${AGENTIC_COLUMNS.map((c) => `${c === 'llms_txt' ? 'i % 7 = 0' : 'FALSE'} AS ${c}`).join(', ')} ` +
          `FROM range(${stores}) t(i)) TO ${lit(path.join(tmp, 'stores.parquet'))} (FORMAT parquet)`,
      );
      await duck.run(
        `COPY (SELECT 'sig_' || md5(${lit(month)} || chr(0) || store_id || chr(0) || 'traffic_up' || chr(0)) AS id, ${lit(month)} AS month, store_id, ` +
          `'traffic_up' AS type, NULL::VARCHAR AS subject, 0.42::DOUBLE AS strength, 'Monthly visits up 42% (12,000 → 17,040)' AS detail ` +
          `FROM (SELECT 's' || lpad(i::VARCHAR, 8, '0') AS store_id FROM range(${stores}) t(i) WHERE i % 10 = ${m % 10})) ` +
          `TO ${lit(path.join(tmp, 'signals.parquet'))} (FORMAT parquet)`,
      );
      const signals = Math.floor(stores / 10) + (stores % 10 > m % 10 ? 1 : 0);
      const sha256 = createHash('sha256').update(await readFile(path.join(tmp, 'stores.parquet'))).digest('hex');
      await writeFile(path.join(tmp, 'run.json'), JSON.stringify({ month, run_id: runId, stores, signals, signals_version: 'bench', stores_file: 'stores.parquet', stores_sha256: sha256 }));
      await rm(dir, { recursive: true, force: true });
      await rename(tmp, dir);
      index[month] = runId;
    }
  } finally {
    duck.close();
  }
  await writeFile(path.join(runs, 'index.json.tmp'), JSON.stringify({ runs_version: 1, months: index }));
  await rename(path.join(runs, 'index.json.tmp'), path.join(runs, 'index.json'));
}

const STORE_COLS = ['run_id', 'month', 'store_id', 'domain', 'country', 'category', 'plan', 'created_month', 'product_count', 'monthly_visits', 'est_monthly_revenue_usd', 'apps', 'ads', 'agentic'];
const SIGNAL_COLS = ['run_id', 'id', 'month', 'store_id', 'type', 'subject', 'strength', 'detail'];

async function floorInsert(file: string, runs: string, months: readonly string[]): Promise<void> {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const duck = await openDuck();
  try {
    const stores = db.prepare(`insert into store_months (${STORE_COLS.join(', ')}) values (${STORE_COLS.map(() => '?').join(', ')})`);
    const signals = db.prepare(`insert into store_signals (${SIGNAL_COLS.join(', ')}) values (${SIGNAL_COLS.map(() => '?').join(', ')})`);
    for (const [table, st, query] of [
      // The least a loader of the run's panel file does: its lists made, nothing checked.
      ['stores', stores, (f: string) => `SELECT ${lit(path.basename(path.dirname(path.dirname(f))))} AS month, store_id, domain, country, category, plan, created_month, product_count::DOUBLE, monthly_visits::DOUBLE, est_monthly_revenue_usd::DOUBLE, ` +
        `to_json(list_filter(string_split(apps, ';'), a -> a <> ''))::VARCHAR, to_json(${flagsList(AD_COLUMNS, (c) => c.slice('ads_'.length))})::VARCHAR, to_json(${flagsList(AGENTIC_COLUMNS, (c) => c)})::VARCHAR FROM read_parquet(${lit(f)})`],
      ['signals', signals, (f: string) => `SELECT id, month, store_id, type, subject, strength, detail FROM read_parquet(${lit(f)})`],
    ] as const) {
      db.exec('begin');
      for (const month of months) {
        const runId = await runOf(runs, month);
        await eachRow(duck, query(path.join(runs, month, runId, `${table}.parquet`)), (row) => st.run(runId, ...row));
      }
      db.exec('commit');
    }
  } finally {
    duck.close();
    db.close();
  }
}

/** The true flags among `columns` as a list of their names. */
const flagsList = (columns: readonly string[], name: (c: string) => string): string =>
  `list_filter([${columns.map((c) => `CASE WHEN ${c} THEN ${lit(name(c))} END`).join(', ')}], x -> x IS NOT NULL)`;

/** The run index.json names for a month. */
async function runOf(runs: string, month: string): Promise<string> {
  const index = JSON.parse(await readFile(path.join(runs, 'index.json'), 'utf8')) as { months: Record<string, string> };
  return index.months[month]!;
}

async function eachRow(duck: Duck, query: string, fn: (row: unknown[]) => void): Promise<void> {
  const result = await duck.conn.stream(query);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    for (const row of chunk.getRows()) fn(row as unknown[]);
  }
}
