/**
 * Table types of the accounts module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { Generated, Selectable } from 'kysely';
import type { AccountStatus } from './statuses.js';
import type { DealStage, LostReason } from '../core/deal-stages.js';

/** The operator's state of each account the workspace has had (its scores live in ranking_blocks). */
export interface AccountsTable {
  workspace_id: string;
  store_id: string;
  delivered_to_agent: Generated<number>;
  delivered_at: string | null;
  updated_at: string;
  /** The operator's latest status for the account (history in account_statuses). */
  status: Generated<AccountStatus>;
}

/**
 * One ranking of a workspace: its rows (ranking_blocks) and their details generation. `writing`
 * while its rows are written, `current` once made current, `superseded` after (kept for
 * cursors; see accounts/rankings.ts), `deleting` while its rows are deleted.
 */
export interface RankingVersionsTable {
  workspace_id: string;
  version: number;
  /** The ranking_details generation its rows show. */
  gen: number;
  state: 'writing' | 'current' | 'superseded' | 'deleting';
  /** Its row count (set when it becomes current). */
  rows: Generated<number>;
  /** Its rows in the in-market list (set when it becomes current). */
  in_market: Generated<number>;
  /**
   * The workspace's status_seq whose statuses its in-market list applies (accounts/statuses-list.ts);
   * null when not known (a re-ranking's, which applies them through its own stamp, or written before 0041).
   */
  status_seq: number | null;
  created_at: string;
  created_ms: number;
  superseded_ms: number | null;
}

/** One account's place in one ranking version: what a row of ranking_blocks holds for each of its positions. */
export interface RankingRow {
  /** Its position in the version (1 = the best score; ties by store_id). */
  pos: number;
  store_id: string;
  score: number;
  /** The score's logit: evidence contributions plus the intercept add up to it. */
  logit: number;
  /** The posterior standard deviation of the logit (null: imported, or written before 0022). */
  logit_sd: number | null;
  /** 1 when the account is in the version's in-market list. */
  in_market: number;
  /** 1 when it is there as exploration. */
  explore: number;
  /** The workspace model version that scored the row (0: imported). */
  model_version: number;
}

/**
 * A ranking version's rows, BLOCK_ROWS positions a row, each column packed (accounts/blocks.ts):
 * block b holds positions b × BLOCK_ROWS + 1 … (b + 1) × BLOCK_ROWS.
 */
export interface RankingBlocksTable {
  workspace_id: string;
  version: number;
  block: number;
  /** JSON array of the store ids. */
  store_ids: string;
  /** 64-bit floats, little-endian. */
  scores: Uint8Array;
  logits: Uint8Array;
  /** NaN: unknown. */
  logit_sds: Uint8Array;
  /** 32-bit integers, little-endian. */
  model_versions: Uint8Array;
  /** A byte a row: bit 0 in market, bit 1 explore, bit 2 held out of the list by its status (accounts/blocks.ts). */
  flags: Uint8Array;
}

/** Where each store is in a ranking version (ranking_blocks is by position), a bucket of stores a row (accounts/positions.ts). */
export interface RankingPositionBucketsTable {
  workspace_id: string;
  version: number;
  /** accounts/positions.ts bucketOf of each of its stores. */
  bucket: number;
  /** Its stores' entries, `US id RS position` each (accounts/positions.ts). */
  entries: string;
}

/** What a ranking's rows show beyond their scores, per generation (changes only with the data). */
export interface RankingDetailsTable {
  workspace_id: string;
  gen: number;
  store_id: string;
  domain: string | null;
  country: string | null;
  category: string | null;
  plan: string | null;
  /** JSON array of evidence items (accounts/model.ts StoredEvidence for scored rows; the declared items of accounts/imported.ts for imported ones). */
  evidence: string;
  /** JSON array of the recent signals shown on the row. */
  signals: string;
}

export interface WorkspaceProfilesTable {
  workspace_id: string;
  /** JSON of accounts/profile.ts `Profile`. */
  profile: string;
  updated_at: string;
}

/** Append-only: the latest row of a (workspace, store) is its status. */
export interface AccountStatusesTable {
  id: string;
  workspace_id: string;
  store_id: string;
  status: AccountStatus;
  note: string | null;
  /** `key:<id>` or `member:<email>`. */
  actor: string;
  created_at: string;
}

export interface WorkspaceModelsTable {
  workspace_id: string;
  version: number;
  /** JSON of the fitted model (weights, posterior, labels used). */
  model: string;
  labels: number;
  fitted_at: string;
}

/** The weights of each model version (JSON object input key → weight). */
export interface ModelWeightsTable {
  workspace_id: string;
  version: number;
  weights: string;
  created_ms: number;
}

export interface OutcomesTable {
  id: string;
  workspace_id: string;
  api_key_id: string;
  store_id: string;
  action: DealStage;
  value: number | null;
  occurred_at: string | null;
  note: string | null;
  lost_reason: LostReason | null;
  lost_reason_other: string | null;
  recorded_at: string;
  /** The deal whose stage move recorded this outcome; null for record_outcome. */
  deal_id: string | null;
  /**
   * The account's row in the ranking current when the outcome was recorded (what the model
   * predicted before it saw the outcome): its score, logit, model version and ranking version.
   * Null when that ranking did not list the store, and for outcomes recorded before 0021.
   */
  ranked_score: number | null;
  ranked_logit: number | null;
  ranked_model_version: number | null;
  ranked_version: number | null;
}

export type AccountRow = Selectable<AccountsTable>;

export type OutcomeRow = Selectable<OutcomesTable>;

/** The accounts tables, by name: added to the workspace database (db/database.ts) below. */
export interface AccountsTables {
  accounts: AccountsTable;
  ranking_versions: RankingVersionsTable;
  ranking_blocks: RankingBlocksTable;
  ranking_position_buckets: RankingPositionBucketsTable;
  ranking_details: RankingDetailsTable;
  outcomes: OutcomesTable;
  workspace_profiles: WorkspaceProfilesTable;
  account_statuses: AccountStatusesTable;
  workspace_models: WorkspaceModelsTable;
  model_weights: ModelWeightsTable;
}


declare module '../db/database.js' {
  // The accounts tables join the workspace database (db/database.ts).
  interface Database extends AccountsTables {}
}
