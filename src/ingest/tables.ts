/**
 * Table types of the ingest module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { SignalType } from '../core/signals.js';

/** Which run of each month is visible (ingest flips it in one transaction). */
export interface IngestedMonthsTable {
  month: string;
  run_id: string;
  stores: number;
  signals: number;
  loaded_at: string;
}

/** One store's features in one month (a row of the run's stores file, typed: ingest/runs-folder.ts typedStores). */
export interface StoreMonthsTable {
  run_id: string;
  month: string;
  store_id: string;
  domain: string | null;
  country: string | null;
  category: string | null;
  plan: string | null;
  created_month: string | null;
  product_count: number | null;
  monthly_visits: number | null;
  est_monthly_revenue_usd: number | null;
  /** JSON array of installed app ids. */
  apps: string;
  /** JSON array of ad networks seen (meta, google, tiktok, pinterest). */
  ads: string;
  /** JSON array of agentic features present (llms_txt, product_schema, agent_checkout, mcp_server, ai_crawlers_allowed). */
  agentic: string;
}

/** One signal of one store in one month (a row of the run's signals.parquet). */
export interface StoreSignalsTable {
  run_id: string;
  /** Stable across re-ingests: derived from (month, store_id, type, subject). */
  id: string;
  month: string;
  store_id: string;
  type: SignalType;
  /** The network, app or feature the signal is about, when it is about one. */
  subject: string | null;
  /** In (0, 1]: how strong the change was. */
  strength: number;
  /** Plain-words description. */
  detail: string;
}

/** The ingest tables, by name: added to the workspace database (db/database.ts) below. */
export interface IngestTables {
  ingested_months: IngestedMonthsTable;
  store_months: StoreMonthsTable;
  store_signals: StoreSignalsTable;
}

declare module '../db/database.js' {
  // The ingest tables join the workspace database (db/database.ts).
  interface Database extends IngestTables {}
}
