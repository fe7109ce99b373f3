/**
 * Table types of the api database. One shape for SQLite and PostgreSQL: booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings.
 */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { AccountStatus } from '../accounts/statuses.js';
import type { EventType } from '../events/types.js';
import type { DealStage, LostReason } from '../pipeline/stages.js';
import type { SignalType } from '../signals/types.js';
import type { Role } from '../workspaces/roles.js';

export interface WorkspacesTable {
  id: string;
  name: string;
  /** 1 when the workspace has approved pilot access (pilot operations). */
  pilot_access: Generated<number>;
  /** JSON array of activation names this workspace has (activation-gated operations). */
  activations: Generated<string>;
  /** Bumped whenever existing accounts are re-scored: cursors of an older ranking expire. */
  ranking_version: Generated<number>;
  /** Bumped by every change to the workspace's accounts rows (not by delivery marks): pages read at one version can be reused. */
  accounts_version: Generated<number>;
  created_at: string;
}

export interface MembersTable {
  workspace_id: string;
  email: string;
  role: Role;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  /** Visible part of the key, e.g. `slk_3f9a2c7d1b0e`; the secret part is never stored. */
  prefix: string;
  /** sha256 hex of the whole key. */
  hash: string;
  /** JSON array of scopes. */
  scopes: string;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface AccountsTable {
  workspace_id: string;
  store_id: string;
  domain: string | null;
  country: string | null;
  category: string | null;
  plan: string | null;
  score: number;
  /** 1 when the account is in the workspace's in-market snapshot. */
  in_market: number;
  delivered_to_agent: Generated<number>;
  delivered_at: string | null;
  updated_at: string;
  /** The score's logit: evidence contributions plus the intercept add up to it. */
  logit: Generated<number>;
  /** 1 when the row is in the in-market list as exploration (see accounts/ranking.ts). */
  explore: Generated<number>;
  /** The workspace model version that scored the row. */
  model_version: Generated<number>;
  /** The operator's latest status for the account (history in account_statuses). */
  status: Generated<AccountStatus>;
}

/** The wide parts of an account row (rewritten only when the data behind them changes). */
export interface AccountDetailsTable {
  workspace_id: string;
  store_id: string;
  /** JSON array of evidence items (accounts/model.ts StoredEvidence for scored rows; as imported otherwise). */
  evidence: Generated<string>;
  /** JSON array of the recent signals shown on the row. */
  signals: Generated<string>;
}

/** Which run of each month is visible (ingest flips it in one transaction). */
export interface IngestedMonthsTable {
  month: string;
  run_id: string;
  stores: number;
  signals: number;
  loaded_at: string;
}

/** One store's features in one month (a row of the run's stores.parquet). */
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

/** Events written in the same transaction as the change that causes them. */
export interface OutboxTable {
  id: string;
  /** Order of writing within the database (epoch ms × 1000 + counter, or a sequence). */
  seq: number;
  workspace_id: string;
  type: EventType;
  /** JSON of the event's data. */
  data: string;
  created_at: string;
  /** 1 once the webhook fan-out turned the event into deliveries. */
  dispatched: Generated<number>;
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
}

export interface WebhookEndpointsTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON array of event types, or null for all. */
  event_types: string | null;
  /** Signing secret, encrypted (webhooks/secrets.ts); never returned after registration or rotation. */
  secret: string;
  created_at: string;
  deleted_at: string | null;
  description: string | null;
  /** Set while the endpoint is disabled (by PATCH, a 410 answer, or five days of failures). */
  disabled_at: string | null;
  disabled_reason: string | null;
  /** The secret before the last rotation, encrypted; it signs too until previous_secret_until_ms. */
  previous_secret: string | null;
  previous_secret_until_ms: number | null;
  /** The last per-endpoint sequence number given to a message. */
  last_seq: Generated<number>;
  /** Since when every attempt failed (null after a success). */
  failing_since_ms: number | null;
  updated_at: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One message: an event (or a test event) for one endpoint; its id is the `webhook-id`. */
export interface WebhookDeliveriesTable {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** Per-endpoint sequence number. */
  seq: number;
  /** JSON of the message body when it is not built from the outbox row (test events). */
  payload: string | null;
  status: DeliveryStatus;
  /** Attempts since the message was (re)scheduled: the retry schedule's position. */
  attempts: Generated<number>;
  next_attempt_ms: number;
  /** A worker's lease: nobody else sends the message before this time. */
  claimed_until_ms: number | null;
  claimed_by: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_ms: number;
  delivered_ms: number | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  /** 1, 2, …: counts every attempt of the message, retries and recoveries included. */
  attempt: number;
  started_ms: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  next_retry_ms: number | null;
}

export interface IdempotencyKeysTable {
  workspace_id: string;
  idem_key: string;
  fingerprint: string;
  /** null while the first request is in progress. */
  status: number | null;
  response: string | null;
  created_ms: number;
}

export interface RateCountersTable {
  api_key_id: string;
  kind: string;
  window_ms: number;
  count: number;
}

export interface RankingHistoryTable {
  workspace_id: string;
  /** The ranking version during which the account had this score. */
  version: number;
  store_id: string;
  score: number;
  in_market: number;
  /** When that version was superseded (epoch ms). */
  superseded_ms: number;
}

export interface SettingsTable {
  name: string;
  value: string;
}

export interface Database {
  workspaces: WorkspacesTable;
  members: MembersTable;
  api_keys: ApiKeysTable;
  accounts: AccountsTable;
  account_details: AccountDetailsTable;
  outcomes: OutcomesTable;
  webhook_endpoints: WebhookEndpointsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_counters: RateCountersTable;
  ranking_history: RankingHistoryTable;
  settings: SettingsTable;
  ingested_months: IngestedMonthsTable;
  store_months: StoreMonthsTable;
  store_signals: StoreSignalsTable;
  workspace_profiles: WorkspaceProfilesTable;
  account_statuses: AccountStatusesTable;
  workspace_models: WorkspaceModelsTable;
  model_weights: ModelWeightsTable;
  outbox: OutboxTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

export type Workspace = Selectable<WorkspacesTable>;
export type Member = Selectable<MembersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type AccountRow = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type OutcomeRow = Selectable<OutcomesTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
