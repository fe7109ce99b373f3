/**
 * `storelens ingest`, and what `api` runs on start and on every new run: loads publish's private
 * runs folder into the api database.
 *
 * For each month whose run in index.json differs from the visible one (ingested_months):
 *  1. its files are checked whole first (runs-folder.ts): a bad run stops the ingest before any
 *     of its rows is written, naming the file, row and field;
 *  2. its rows are inserted tagged with the new run id, a chunk per transaction (invisible to
 *     readers, who join on ingested_months: see ingest/stores.ts);
 *  3. ingested_months flips to the new run in one small transaction (compare-and-set on the
 *     previous run id): readers go from the whole old month to the whole new one;
 *  4. the previous run's rows are deleted, in chunks.
 * The contact source index.json names (contacts/source.ts) is checked with the runs, and then
 * replaces store_contacts whole, in one transaction, when it is not the one loaded. Re-ingesting the same runs writes nothing. One ingest runs at a time per database (a lease,
 * see lease.ts); the holder first removes rows of any run that is not visible (a crashed load,
 * or a superseded run whose deletion was interrupted).
 */
import type { Db } from '../db/database.js';
import {
  deleteRunRows,
  flipIngestedMonth,
  ingestedMonths,
  insertStoreMonths,
  insertStoreSignals,
  runIdsWithRows,
  type StoreMonthRow,
  type StoreSignalRow,
} from './stores.js';
import { CliError } from '../core/errors.js';
import { type Duck, lit, openDuck } from '../panel/duck.js';
import type { SignalType } from '../core/signals.js';
import { acquireLease, type Lease } from './lease.js';
import { checkRun, readContactsPointer, readRunsIndex, typedStores, type RunFiles, type RunRef } from './runs-folder.js';
import { ingestedContacts, replaceStoreContacts, readContactsRun, type StoreContact } from '../contacts/index.js';

export interface IngestSummary {
  /** Months loaded by this ingest (a new or corrected run), oldest first. */
  months: string[];
  /** Store rows loaded by this ingest. */
  stores: number;
  /** Signal rows loaded by this ingest. */
  signals: number;
  /** Rows of the contact source loaded by this ingest (absent when the source did not change). */
  contacts?: number;
}

export interface IngestOptions {
  now: () => Date;
  onProgress?: (msg: string) => void;
  /** Rows per write transaction (default 5,000). */
  chunkRows?: number;
  /** How long to wait for another ingest's lease before giving up (default 5 minutes). */
  leaseWaitMs?: number;
  /**
   * Asked before each chunk of a month's rows: true stops the ingest with IngestStopped (a
   * process shutting down). The month being loaded stays unflipped; the next ingest removes its
   * rows and loads it again.
   */
  stopping?: () => boolean;
}

export class IngestStopped extends Error {
  constructor() {
    super('ingest stopped before it finished (the process is stopping); the next ingest loads what is left');
  }
}

const DEFAULT_CHUNK_ROWS = 5_000;

export async function ingestRuns(db: Db, runsDir: string, opts: IngestOptions): Promise<IngestSummary> {
  const say = opts.onProgress ?? (() => {});
  await readRunsIndex(runsDir); // fail fast (missing folder, bad index) before waiting for the lease
  const lease = await acquireLease(db, {
    nowMs: () => opts.now().getTime(),
    waitMs: opts.leaseWaitMs,
    onWait: (holder) => say(`waiting for another ingest (${holder}) to finish`),
  });
  try {
    const runs = await readRunsIndex(runsDir);
    await removeInvisibleRuns(db, lease, opts.chunkRows ?? DEFAULT_CHUNK_ROWS, say);
    const visible = new Map((await ingestedMonths(db.kysely)).map((m) => [m.month, m.run_id]));
    const todo = runs.filter((r) => visible.get(r.month) !== r.runId);
    const summary: IngestSummary = { months: [], stores: 0, signals: 0 };
    // Everything is checked before anything is written: a bad run (or contact source) refused
    // leaves the database as it was, not the contacts of a publication whose months it refused.
    const contacts = await checkedContacts(db, runsDir);
    const duck = todo.length ? await openDuck() : null;
    try {
      const checked: [RunRef, RunFiles][] = [];
      for (const run of todo) {
        say(`${run.month}: checking run ${run.runId.slice(0, 12)}`);
        checked.push([run, await checkRun(duck!, run)]);
      }
      if (contacts) summary.contacts = await loadContacts(db, contacts, opts.now(), say);
      for (const [run, files] of checked) {
        await loadRun(db, duck!, lease, run, files, visible.get(run.month) ?? null, opts, say);
        summary.months.push(run.month);
        summary.stores += files.stores_count;
        summary.signals += files.signals_count;
      }
    } finally {
      duck?.close();
    }
    return summary;
  } finally {
    await lease.release();
  }
}

async function loadRun(db: Db, duck: Duck, lease: Lease, run: RunRef, files: RunFiles, previous: string | null, opts: IngestOptions, say: (m: string) => void): Promise<void> {
  const chunk = opts.chunkRows ?? DEFAULT_CHUNK_ROWS;
  say(`${run.month}: loading ${files.stores_count} stores and ${files.signals_count} signals`);
  // A CSV or NDJSON file is staged (and checked) again as it is loaded: staged for as long as its rows load, not while others are checked.
  const select = files.storesSelect ?? (await typedStores(duck, files.stores, 'run_stores')).select;
  try {
    await streamRows(duck, select, chunk, async (cols, n) => {
      if (opts.stopping?.()) throw new IngestStopped();
      await lease.renew();
      const rows = storeRows(run.runId, cols, n, files.stores.file);
      await db.write((trx) => insertStoreMonths(trx, rows));
    });
  } finally {
    await duck.run(`DROP TABLE IF EXISTS run_stores`);
  }
  await streamRows(duck, signalsQuery(files.signals), chunk, async (cols, n) => {
    if (opts.stopping?.()) throw new IngestStopped();
    await lease.renew();
    const rows = signalRows(run.runId, cols, n);
    await db.write((trx) => insertStoreSignals(trx, rows));
  });
  await lease.renew();
  const flipped = await db.write((trx) =>
    flipIngestedMonth(trx, { month: run.month, run_id: run.runId, stores: files.stores_count, signals: files.signals_count, loaded_at: opts.now().toISOString() }, previous),
  );
  if (!flipped) throw new CliError(`${run.month}: another ingest changed this month while it was loading; run ingest again`, 1);
  say(`${run.month}: now serving run ${run.runId.slice(0, 12)}`);
  if (previous) await deleteRun(db, lease, previous, chunk);
}

/** The contact source index.json names, read and checked whole (null: none), when it is not the one loaded; else null. */
async function checkedContacts(db: Db, runsDir: string): Promise<{ wanted: string | null; rows: StoreContact[] } | null> {
  const wanted = await readContactsPointer(runsDir);
  const held = await ingestedContacts(db.kysely);
  if ((held?.source_id ?? null) === wanted) return null;
  return { wanted, rows: wanted === null ? [] : await readContactsRun(runsDir, wanted) };
}

/**
 * Replaces store_contacts with the checked contact source (or empties it when the index names
 * none), in one transaction. Resolves to the rows loaded.
 */
async function loadContacts(db: Db, { wanted, rows }: { wanted: string | null; rows: StoreContact[] }, now: Date, say: (m: string) => void): Promise<number> {
  say(wanted === null ? 'removing the contact source (the runs folder names none now)' : `loading ${rows.length} contacts of source ${wanted.slice(0, 12)}`);
  await db.write((trx) => replaceStoreContacts(trx, wanted, rows, now));
  return rows.length;
}

/** Deletes the rows of every run no month shows: crashed loads and superseded runs. */
async function removeInvisibleRuns(db: Db, lease: Lease, chunk: number, say: (m: string) => void): Promise<void> {
  const visible = new Set((await ingestedMonths(db.kysely)).map((m) => m.run_id));
  const present = new Set([...(await runIdsWithRows(db.kysely, 'store_months')), ...(await runIdsWithRows(db.kysely, 'store_signals'))]);
  for (const runId of present) {
    if (visible.has(runId)) continue;
    say(`removing rows of run ${runId.slice(0, 12)}, which no month shows (an interrupted ingest)`);
    await deleteRun(db, lease, runId, chunk);
  }
}

async function deleteRun(db: Db, lease: Lease, runId: string, chunk: number): Promise<void> {
  for (const table of ['store_months', 'store_signals'] as const) {
    for (;;) {
      await lease.renew();
      const n = await db.write((trx) => deleteRunRows(trx, table, runId, chunk));
      if (n < chunk) break;
    }
  }
}

const signalsQuery = (file: string) => `SELECT id, store_id, type, subject, strength, detail, month FROM read_parquet(${lit(file)})`;

type Columns = unknown[][];

/** Runs a DuckDB query and hands its result to `fn` in column batches of about `rows` rows. */
export async function streamRows(duck: Duck, query: string, rows: number, fn: (cols: Columns, n: number) => Promise<void>): Promise<void> {
  const result = await duck.conn.stream(query);
  let batch: Columns | null = null;
  let n = 0;
  const flush = async () => {
    if (batch && n > 0) await fn(batch, n);
    batch = null;
    n = 0;
  };
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const cols = chunk.getColumns() as unknown[][];
    if (!batch) batch = cols.map(() => [] as unknown[]);
    for (let c = 0; c < cols.length; c++) {
      const into = batch[c]!;
      for (const v of cols[c]!) into.push(v);
    }
    n += chunk.rowCount;
    if (n >= rows) await flush();
  }
  await flush();
}

/** A BIGINT from DuckDB (a JS bigint) as a number, refusing one a double cannot hold exactly. */
function bigintToNumber(v: unknown, file: string, field: string): number | null {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new CliError(`${file}: field "${field}" holds ${String(v)}, too large to load exactly`, 2);
  return n;
}

function storeRows(runId: string, c: Columns, n: number, file: string): StoreMonthRow[] {
  const rows: StoreMonthRow[] = new Array(n);
  for (let i = 0; i < n; i++) {
    rows[i] = {
      run_id: runId,
      month: c[12]![i] as string,
      store_id: c[0]![i] as string,
      domain: c[1]![i] as string | null,
      country: c[2]![i] as string | null,
      category: c[3]![i] as string | null,
      plan: c[4]![i] as string | null,
      created_month: c[5]![i] as string | null,
      product_count: bigintToNumber(c[6]![i], file, 'product_count'),
      monthly_visits: bigintToNumber(c[7]![i], file, 'monthly_visits'),
      est_monthly_revenue_usd: c[8]![i] as number | null,
      apps: c[9]![i] as string,
      ads: c[10]![i] as string,
      agentic: c[11]![i] as string,
    };
  }
  return rows;
}

function signalRows(runId: string, c: Columns, n: number): StoreSignalRow[] {
  const rows: StoreSignalRow[] = new Array(n);
  for (let i = 0; i < n; i++) {
    rows[i] = {
      run_id: runId,
      id: c[0]![i] as string,
      month: c[6]![i] as string,
      store_id: c[1]![i] as string,
      type: c[2]![i] as SignalType,
      subject: c[3]![i] as string | null,
      strength: c[4]![i] as number,
      detail: c[5]![i] as string,
    };
  }
  return rows;
}
