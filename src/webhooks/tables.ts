/**
 * Table types of the webhooks module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { Generated, Selectable } from 'kysely';
import type { EventType } from '../core/event-declaration.js';

/** The last number given to an event of the workspace (webhooks/outbox.ts), and how far the fan-out has got. */
export interface OutboxSequencesTable {
  workspace_id: string;
  last_seq: number;
  /** Every event of the workspace numbered up to this one has had its messages made (webhooks/messages-store.ts fanOut). */
  dispatched_seq: Generated<number>;
}

/** Events written in the same transaction as the change that causes them. */
export interface OutboxTable {
  id: string;
  /** The event's number in its workspace (outbox_sequences), in the order the changes committed. */
  seq: number;
  workspace_id: string;
  type: EventType;
  /** JSON of the event's data. */
  data: string;
  created_at: string;
}

export interface WebhookEndpointsTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON array of event types, or null for all. */
  event_types: string | null;
  /** Signing secret, encrypted (outbound/secrets.ts); never returned after registration or rotation. */
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
  /** Since when every attempt failed, in a streak of failures none more than STREAK_GAP_MS after the one before (null after a success). */
  failing_since_ms: number | null;
  /** The last failed attempt (migration 0034). */
  last_failure_ms: number | null;
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

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

/** The webhooks tables, by name: added to the workspace database (db/database.ts) below. */
export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  outbox: OutboxTable;
  outbox_sequences: OutboxSequencesTable;
}


declare module '../db/database.js' {
  // The webhooks tables join the workspace database (db/database.ts).
  interface Database extends WebhooksTables {}
}
