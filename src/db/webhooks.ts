/** Registered event-notification endpoints. Deletion is soft so the delivery log keeps its endpoint. */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { newId } from './ids.js';
import type { Database, WebhookEndpointRow } from './schema.js';

export interface NewWebhookEndpoint {
  url: string;
  event_types?: readonly string[] | null;
}

export async function insertWebhookEndpoint(q: Kysely<Database>, workspaceId: string, ep: NewWebhookEndpoint, now: Date): Promise<WebhookEndpointRow> {
  const row: WebhookEndpointRow = {
    id: newId('whe'),
    workspace_id: workspaceId,
    url: ep.url,
    event_types: ep.event_types ? JSON.stringify([...ep.event_types]) : null,
    secret: `whsec_${randomBytes(24).toString('base64')}`,
    created_at: now.toISOString(),
    deleted_at: null,
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
