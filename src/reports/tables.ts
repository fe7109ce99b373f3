/**
 * Table types of the reports module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */


export type GrowthReportStatus = 'awaiting_approval' | 'queued' | 'running' | 'done' | 'failed';

export interface GrowthReportsTable {
  id: string;
  workspace_id: string;
  seq: number;
  store_id: string;
  month: string | null;
  status: GrowthReportStatus;
  requested_by: string;
  ledger_entry_id: string | null;
  approval_id: string | null;
  refund_entry_id: string | null;
  /** JSON of the finished report. */
  content: string | null;
  /** JSON problem of a failed report. */
  problem: string | null;
  claimed_until_ms: number | null;
  requested_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The reports tables, by name: added to the workspace database (db/database.ts) below. */
export interface ReportsTables {
  growth_reports: GrowthReportsTable;
}

declare module '../db/database.js' {
  // The reports tables join the workspace database (db/database.ts).
  interface Database extends ReportsTables {}
}
