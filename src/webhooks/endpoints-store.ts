/**
 * Event-notification endpoints (webhooks) of a workspace. Deletion is soft so the delivery log
 * keeps its endpoint. Secrets arrive here sealed (outbound/secrets.ts); this file never sees a
 * plain one except insertWebhookEndpoint's default for callers that pass none.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import { loadSecretBox, newSigningSecret } from '../outbound/secrets.js';
import { newId } from '../db/ids.js';
import { lockRows } from '../db/locks.js';
import { lockedWorkspaceCount } from '../workspaces/store.js';
import type { Database } from '../db/database.js';
import type { WebhookEndpointRow } from './tables.js';

export interface NewWebhookEndpoint {
  url: string;
  event_types?: readonly string[] | null;
  description?: string | null;
  /** The signing secret, sealed; default: a new secret sealed under the database's key. */
  sealedSecret?: string;
}

/**
 * An endpoint still sent to: not deleted, not disabled. The one definition that the fan-out, the
 * claims of due messages (messages-store.ts) and the backlog gauges (compose/backlog-metrics.ts)
 * read: a message of any other endpoint stays pending and waits for nothing a worker can do.
 */
export const sentTo = (eb: ExpressionBuilder<Database, 'webhook_endpoints'>) => eb.and([eb('deleted_at', 'is', null), eb('disabled_at', 'is', null)]);

/** The ids of the endpoints still sent to, as a subquery. */
export const endpointsSentTo = (q: Kysely<Database>) => q.selectFrom('webhook_endpoints').select('id').where(sentTo);

/**
 * Endpoints a workspace may have at once, disabled ones included and deleted ones not. Every event
 * goes to each endpoint that wants it, so without a bound one key could turn each event into
 * thousands of signed requests at one receiver. (Stripe allows 16 an account.)
 */
export const WEBHOOK_ENDPOINTS_MAX = 20;

/** The workspace's endpoints that are not deleted, counted for its cap under the workspace row's lock (lockedWorkspaceCount). */
export const lockedEndpointCount = (trx: Kysely<Database>, workspaceId: string): Promise<number> =>
  lockedWorkspaceCount(trx, workspaceId, async (q) => (await q.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).n);

export async function insertWebhookEndpoint(q: Kysely<Database>, workspaceId: string, ep: NewWebhookEndpoint, now: Date): Promise<WebhookEndpointRow> {
  const row: WebhookEndpointRow = {
    id: newId('whe'),
    workspace_id: workspaceId,
    url: ep.url,
    event_types: ep.event_types ? JSON.stringify([...ep.event_types]) : null,
    secret: ep.sealedSecret ?? (await loadSecretBox(q)).seal(newSigningSecret()),
    created_at: now.toISOString(),
    deleted_at: null,
    description: ep.description ?? null,
    disabled_at: null,
    disabled_reason: null,
    previous_secret: null,
    previous_secret_until_ms: null,
    last_seq: 0,
    failing_since_ms: null,
    last_failure_ms: null,
    updated_at: now.toISOString(),
  };
  await q.insertInto('webhook_endpoints').values(row).execute();
  return row;
}

/** Live (not deleted) endpoint of this workspace, or undefined. */
export async function findWebhookEndpoint(q: Kysely<Database>, workspaceId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  return q
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A page of the workspace's live endpoints, oldest first, after (created_at, id). */
export async function listWebhookEndpoints(q: Kysely<Database>, workspaceId: string, limit: number, after?: { created_at: string; id: string }): Promise<WebhookEndpointRow[]> {
  let query = q.selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null);
  if (after) query = query.where((eb) => eb.or([eb('created_at', '>', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)])]));
  return query.orderBy('created_at').orderBy('id').limit(limit).execute();
}

export interface EndpointChange {
  url?: string;
  event_types?: readonly string[] | null;
  description?: string | null;
  /** false: disabled by the caller; true: enabled again (clears the reason and the failure streak). */
  enabled?: boolean;
}

/**
 * The live endpoint, locked for the rest of trx: a change, a rotation and a deletion of one
 * endpoint take turns, each seeing what the one before it committed. Undefined when there is
 * none (also when it was deleted meanwhile).
 */
export async function lockEndpoint(trx: Kysely<Database>, workspaceId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  const [ep] = (await lockRows(trx, 'webhook_endpoints', { workspace_id: workspaceId, id })) as unknown as WebhookEndpointRow[];
  return ep && ep.deleted_at === null ? ep : undefined;
}

/** Applies the change to a live endpoint; undefined when there is none (unknown, other workspace, deleted). */
export async function updateWebhookEndpoint(trx: Kysely<Database>, workspaceId: string, id: string, change: EndpointChange, now: Date): Promise<WebhookEndpointRow | undefined> {
  const current = await lockEndpoint(trx, workspaceId, id);
  if (!current) return undefined;
  const set: Partial<WebhookEndpointRow> = { updated_at: now.toISOString() };
  if (change.url !== undefined) set.url = change.url;
  if (change.event_types !== undefined) set.event_types = change.event_types === null ? null : JSON.stringify([...change.event_types]);
  if (change.description !== undefined) set.description = change.description;
  if (change.enabled === false && current.disabled_at === null) Object.assign(set, { disabled_at: now.toISOString(), disabled_reason: 'disabled by the API (PATCH enabled: false)' });
  // Only turning a disabled endpoint back on starts afresh: `enabled: true` sent to one that is on
  // (a client re-sending its whole configuration) must not restart the failure streak that
  // disables a dead receiver after five days.
  if (change.enabled === true && current.disabled_at !== null) Object.assign(set, { disabled_at: null, disabled_reason: null, failing_since_ms: null });
  await trx.updateTable('webhook_endpoints').set(set).where('id', '=', id).execute();
  return { ...current, ...set };
}

/** Replaces the secret of a live endpoint; the one it replaces keeps signing until `overlapUntilMs`. Undefined when there is none. */
export async function rotateWebhookSecret(trx: Kysely<Database>, workspaceId: string, id: string, sealedSecret: string, overlapUntilMs: number, now: Date): Promise<WebhookEndpointRow | undefined> {
  const current = await lockEndpoint(trx, workspaceId, id);
  if (!current) return undefined;
  const set = { secret: sealedSecret, previous_secret: current.secret, previous_secret_until_ms: overlapUntilMs, updated_at: now.toISOString() };
  await trx.updateTable('webhook_endpoints').set(set).where('id', '=', id).execute();
  return { ...current, ...set };
}

/** Deletes a live endpoint of this workspace; false when there is none (unknown, other workspace, deleted). */
export async function deleteWebhookEndpoint(trx: Kysely<Database>, workspaceId: string, id: string, now: Date): Promise<boolean> {
  const r = await trx
    .updateTable('webhook_endpoints')
    .set({ deleted_at: now.toISOString() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
