/**
 * Table types of the outreach module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { Generated } from 'kysely';

export interface OutreachCadencesTable {
  id: string;
  workspace_id: string;
  seq: number;
  name: string;
  /** JSON array of {day, name}. */
  steps: string;
  created_at: string;
}

export type EnrollmentStatus = 'awaiting_approval' | 'active' | 'stopped' | 'completed';

export interface OutreachEnrollmentsTable {
  id: string;
  workspace_id: string;
  seq: number;
  store_id: string;
  contact_id: string;
  cadence_id: string;
  status: EnrollmentStatus;
  actor: string;
  api_key_id: string | null;
  next_step: Generated<number>;
  start_ms: number | null;
  next_due_ms: number | null;
  ledger_entry_id: string | null;
  approval_id: string | null;
  stop_reason: string | null;
  created_at: string;
  stopped_at: string | null;
}

/** `sending`: charged and on its way to the sender (claimed_until_ms); `sent` once the sender accepted it. */
export type OutreachStepStatus = 'sending' | 'sent' | 'held' | 'failed';

export interface OutreachStepsTable {
  id: string;
  enrollment_id: string;
  workspace_id: string;
  step: number;
  day: number;
  due_ms: number;
  status: OutreachStepStatus;
  reason: string | null;
  ledger_entry_id: string | null;
  status_code: number | null;
  /** While `sending`: the posting worker's claim; once it ran out, another worker posts the step again. */
  claimed_until_ms: number | null;
  created_at: string;
}

export interface OutreachSendersTable {
  workspace_id: string;
  url: string;
  secret: string;
  created_at: string;
}

/** The outreach tables, by name: added to the workspace database (db/database.ts) below. */
export interface OutreachTables {
  outreach_cadences: OutreachCadencesTable;
  outreach_enrollments: OutreachEnrollmentsTable;
  outreach_steps: OutreachStepsTable;
  outreach_senders: OutreachSendersTable;
}


declare module '../db/database.js' {
  // The outreach tables join the workspace database (db/database.ts).
  interface Database extends OutreachTables {}
}
