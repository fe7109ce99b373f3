/**
 * Table types of the api database. One shape for SQLite and PostgreSQL: booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings.
 */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { AccountStatus } from '../accounts/statuses.js';
import type { EventType } from '../webhooks/events.js';
import type { DealStage, LostReason } from '../deals/stages.js';
import type { SignalType } from '../core/signals.js';
import type { Role } from '../members/roles.js';
import type { WatchHealth, WatchStatus, WatchType } from '../watches/types.js';

export interface WorkspacesTable {
  id: string;
  name: string;
  /** 1 when the workspace has approved pilot access (pilot operations). */
  pilot_access: Generated<number>;
  /** JSON array of activation names this workspace has (activation-gated operations). */
  activations: Generated<string>;
  /** The current ranking version (accounts/rankings.ts); cursors walk the version they were issued on. */
  ranking_version: Generated<number>;
  /** The last ranking version number handed out (versions are written before they become current). */
  ranking_seq: Generated<number>;
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

/** The operator's state of each account the workspace has had (its scores live in rankings). */
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
 * One ranking of a workspace: its rows (rankings) and their details generation. `writing`
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
  created_at: string;
  created_ms: number;
  superseded_ms: number | null;
}

/** One account's place in one ranking version. */
export interface RankingsTable {
  workspace_id: string;
  version: number;
  /** Its position in the version (1 = the best score; ties by store_id). */
  pos: number;
  store_id: string;
  score: number;
  /** The score's logit: evidence contributions plus the intercept add up to it. */
  logit: number;
  /** 1 when the account is in the version's in-market list. */
  in_market: number;
  /** 1 when it is there as exploration. */
  explore: number;
  /** The workspace model version that scored the row (0: imported). */
  model_version: number;
}

/** Where each store is in a ranking version (rankings is keyed by position). */
export interface RankingPositionsTable {
  workspace_id: string;
  version: number;
  store_id: string;
  pos: number;
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
  /** JSON array of evidence items (accounts/model.ts StoredEvidence for scored rows; as imported otherwise). */
  evidence: string;
  /** JSON array of the recent signals shown on the row. */
  signals: string;
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
/** The last number given to an event of the workspace (webhooks/outbox.ts). */
export interface OutboxSequencesTable {
  workspace_id: string;
  last_seq: number;
}

export interface OutboxTable {
  id: string;
  /** The event's number in its workspace (outbox_sequences), in the order the changes committed. */
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
  /** The deal whose stage move recorded this outcome; null for record_outcome. */
  deal_id: string | null;
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
  /** Admitted calls of the window. */
  count: number;
  /** The count before the last write (0 after the first). */
  prev: number;
}

export interface SettingsTable {
  name: string;
  value: string;
}

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

/** A workspace's contact (email normalised: trimmed, domain lower-cased; unique per workspace). */
export interface ContactsTable {
  id: string;
  workspace_id: string;
  store_id: string;
  name: string | null;
  email: string;
  role: string | null;
  /** `discovered` when the store's contact source listed the email when it was added, else `manual`. */
  source: 'manual' | 'discovered';
  /** The contact source's own `source` column for a discovered contact. */
  source_detail: string | null;
  /** `key:<id>` or `member:<email>`. */
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** One row of the data team's contact source (not per workspace; replaced whole by ingest). */
export interface StoreContactsTable {
  store_id: string;
  email: string;
  name: string | null;
  role: string | null;
  source: string | null;
}

/** Which contact source store_contacts holds: one row, id `current`. */
export interface IngestedContactsTable {
  id: string;
  /** The source's content id in the runs folder (index.json `contacts`). */
  source_id: string;
  rows: number;
  loaded_at: string;
}

/** A managed, self-directed or client watch (src/watches/). */
export interface WatchesTable {
  id: string;
  workspace_id: string;
  type: WatchType;
  /** The client's name (client watches only). */
  client_name: string | null;
  /** How many in-market accounts the managed watch holds (managed only). */
  capacity: number | null;
  status: WatchStatus;
  health: WatchHealth;
  health_reason: string;
  /** What the last check saw (ingested runs, stores, capacity, month); null: never checked. */
  generation: string | null;
  /** The latest ingested month of the last check. */
  checked_month: string | null;
  checked_at: string | null;
  /** The workspace id on its managed watch (unique: one per workspace); null otherwise. */
  managed_key: string | null;
  /** Creation order (epoch µs, bumped on ties). */
  seq: number;
  created_at: string;
  updated_at: string;
}

/** The stores a self-directed or client watch holds (the managed watch's come from the ranking). */
export interface WatchStoresTable {
  watch_id: string;
  store_id: string;
  added_at: string;
}

/** What changed in a watched store in a month (or, store_id null, in the watch's health). */
export interface WatchEventsTable {
  id: string;
  watch_id: string;
  month: string;
  store_id: string | null;
  domain: string | null;
  /** A signal type, `revenue_down`, `store_absent` or `health_changed`. */
  kind: string;
  /** The health level the change points to: healthy (informational), degraded or failing. */
  level: WatchHealth;
  detail: string;
  created_at: string;
}

/** Proof of one check: the month and run it read, the stores it checked, the health it found. */
export interface WatchReceiptsTable {
  id: string;
  watch_id: string;
  seq: number;
  month: string;
  run_id: string;
  /** JSON array of the store ids checked. */
  store_ids: string;
  health: WatchHealth;
  health_reason: string;
  checked_at: string;
}

export interface MemberLoginsTable {
  email: string;
  password_hash: string;
  updated_at: string;
}

export interface MemberInvitesTable {
  token_hash: string;
  workspace_id: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface MemberSessionsTable {
  token_hash: string;
  email: string;
  csrf: string;
  created_at: string;
  expires_at: string;
}

export interface WorkspaceSettingsTable {
  workspace_id: string;
  wallet_visibility: 'owners' | 'all';
}

export interface OauthRecordsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_ms: number | string | null;
  consumed_ms: number | string | null;
}

/** A lease on a unit of background work (db/leases.ts). */
export interface LeasesTable {
  name: string;
  owner: string;
  until_ms: number | string;
}

export interface Database {
  workspaces: WorkspacesTable;
  members: MembersTable;
  api_keys: ApiKeysTable;
  accounts: AccountsTable;
  ranking_versions: RankingVersionsTable;
  rankings: RankingsTable;
  ranking_positions: RankingPositionsTable;
  ranking_details: RankingDetailsTable;
  outcomes: OutcomesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_counters: RateCountersTable;
  settings: SettingsTable;
  ingested_months: IngestedMonthsTable;
  store_months: StoreMonthsTable;
  store_signals: StoreSignalsTable;
  workspace_profiles: WorkspaceProfilesTable;
  account_statuses: AccountStatusesTable;
  workspace_models: WorkspaceModelsTable;
  model_weights: ModelWeightsTable;
  outbox: OutboxTable;
  outbox_sequences: OutboxSequencesTable;
  contacts: ContactsTable;
  store_contacts: StoreContactsTable;
  ingested_contacts: IngestedContactsTable;
  watches: WatchesTable;
  watch_stores: WatchStoresTable;
  watch_events: WatchEventsTable;
  watch_receipts: WatchReceiptsTable;
  deals: DealsTable;
  deal_notes: DealNotesTable;
  deal_history: DealHistoryTable;
  wallets: WalletsTable;
  ledger_entries: LedgerEntriesTable;
  prices: PricesTable;
  approvals: ApprovalsTable;
  supervision_entries: SupervisionEntriesTable;
  growth_reports: GrowthReportsTable;
  outreach_cadences: OutreachCadencesTable;
  outreach_enrollments: OutreachEnrollmentsTable;
  outreach_steps: OutreachStepsTable;
  outreach_senders: OutreachSendersTable;
  member_logins: MemberLoginsTable;
  member_invites: MemberInvitesTable;
  member_sessions: MemberSessionsTable;
  workspace_settings: WorkspaceSettingsTable;
  oauth_records: OauthRecordsTable;
  leases: LeasesTable;
}

/** A workspace as the API sees it (ranking_seq is the ranking writer's own counter). */
export type Workspace = Omit<Selectable<WorkspacesTable>, 'ranking_seq'>;
export type Member = Selectable<MembersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type AccountRow = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type OutcomeRow = Selectable<OutcomesTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type ContactRow = Selectable<ContactsTable>;

/** A workspace's wallet: money in integer minor units of `currency`; `balance` is the sum of its ledger entries. */
export interface WalletsTable {
  workspace_id: string;
  currency: string;
  balance: Generated<number>;
  plan: string;
  /** Standing rule: a charge of at least this amount waits for an owner's approval (null: none waits). */
  auto_approve_below: number | null;
  /** Standing rule: debits of a calendar month (UTC) may not exceed this (null: no cap); the monthly statement is not counted. */
  monthly_cap: number | null;
  rules_updated_at: string | null;
  rules_updated_by: string | null;
  created_at: string;
  /** The newest ledger entry's seq: the next entry takes ledger_seq + 1 in the UPDATE that moves the balance. */
  ledger_seq: Generated<number>;
  /** The newest ledger entry's created_at (null: no entry yet); a later entry is never dated earlier. */
  ledger_at: string | null;
}

export type LedgerKind = 'credit' | 'debit' | 'refund';

/** The append-only ledger: credits and refunds positive, debits negative. */
export interface LedgerEntriesTable {
  id: string;
  workspace_id: string;
  /** Order in the wallet's ledger, from wallets.ledger_seq: newest first is seq descending. */
  seq: number;
  kind: LedgerKind;
  amount: number;
  currency: string;
  balance_after: number;
  unit: string | null;
  quantity: number | null;
  unit_price: number | null;
  price_version: number | null;
  /** The cause: the operation (or CLI command, or worker step) ... */
  operation_id: string;
  /** ... its idempotency key (unique per workspace and operation) ... */
  idempotency_key: string;
  /** ... and who: `key:<id>`, `member:<email>` or `worker`. */
  actor: string;
  /** For debits: `approval:<id>`, `rule:auto_approve_below`, `rule:no_approval_needed`, `plan:<name>` (the monthly statement). */
  allowed_by: string | null;
  approval_id: string | null;
  refund_of: string | null;
  reason: string | null;
  created_at: string;
}

export interface PricesTable {
  version: number;
  unit: string;
  currency: string;
  unit_price: number;
  description: string;
  effective_from: string;
}

export type ApprovalStatus = 'pending' | 'approved' | 'denied';

export interface ApprovalsTable {
  id: string;
  workspace_id: string;
  seq: number;
  status: ApprovalStatus;
  unit: string;
  quantity: number;
  amount: number;
  currency: string;
  price_version: number;
  operation_id: string;
  idempotency_key: string;
  actor: string;
  resource_kind: string | null;
  resource_id: string | null;
  entry_id: string | null;
  decided_by: string | null;
  decided_at: string | null;
  requested_at: string;
}

export interface SupervisionEntriesTable {
  id: string;
  workspace_id: string;
  seq: number;
  kind: string;
  actor: string;
  api_key_id: string | null;
  subject: string | null;
  quantity: number;
  /** JSON object. */
  detail: string;
  allowed_by: string;
  approval_id: string | null;
  ledger_entry_id: string | null;
  created_at: string;
}

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

export type OutreachStepStatus = 'sent' | 'held' | 'failed';

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
  created_at: string;
}

export interface OutreachSendersTable {
  workspace_id: string;
  url: string;
  secret: string;
  created_at: string;
}
