/**
 * Table types of the deals module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { DealStage, LostReason } from '../core/deal-stages.js';

export interface DealsTable {
  id: string;
  workspace_id: string;
  store_id: string;
  title: string;
  value: number | null;
  /** ISO 4217 code, upper case. */
  currency: string | null;
  stage: DealStage;
  owner_email: string | null;
  /** YYYY-MM-DD. */
  expected_close_date: string | null;
  /** Set while the deal is lost. */
  lost_reason: LostReason | null;
  lost_reason_other: string | null;
  /** 1 at creation, +1 on every change. */
  version: number;
  created_at: string;
  updated_at: string;
}

export interface DealNotesTable {
  /** Sorts in writing order (see deals/store.ts). */
  id: string;
  workspace_id: string;
  deal_id: string;
  body: string;
  actor: string;
  created_at: string;
}

/** One row per creation, stage move and changed field; (deal_id, version, field) orders it. */
export interface DealHistoryTable {
  deal_id: string;
  /** The deal's version after the change. */
  version: number;
  /** `stage` for a creation or a stage move, else the changed field. */
  field: string;
  workspace_id: string;
  kind: 'created' | 'stage_changed' | 'field_changed';
  /** JSON of the value before (null for a creation) and after. */
  from_value: string;
  to_value: string;
  lost_reason: LostReason | null;
  lost_reason_other: string | null;
  actor: string;
  created_at: string;
}

/** The deals tables, by name: added to the workspace database (db/database.ts) below. */
export interface DealsTables {
  deals: DealsTable;
  deal_notes: DealNotesTable;
  deal_history: DealHistoryTable;
}


declare module '../db/database.js' {
  // The deals tables join the workspace database (db/database.ts).
  interface Database extends DealsTables {}
}
