/** Event-notification endpoints (webhooks). Registration and listing arrive with the events work. */
import { z } from 'zod';
import { deleteWebhookEndpoint } from '../../db/webhooks.js';
import { EVENT_TYPES } from '../../events/types.js';
import { ApiProblem } from '../problems.js';
import { defineRoute } from '../route-def.js';
import { Deleted, idParam, page, pageQuery } from '../schemas.js';

const WebhookEndpoint = z.object({
  object: z.literal('webhook_endpoint'),
  id: z.string(),
  url: z.string(),
  event_types: z.array(z.enum(EVENT_TYPES)).nullable().describe('null: every event type'),
  created_at: z.string(),
});

export const webhookRoutes = [
  defineRoute({
    operationId: 'register_webhook',
    method: 'POST',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Register an event-notification endpoint',
    description:
      'Registers an https URL. Leaving out `event_types` delivers every event type. The signing secret is returned once, in this response; a replay with the same Idempotency-Key does not return it again. Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`).',
    scope: 'manage:webhooks',
    kind: 'write',
    planned: 'available',
    body: z.strictObject({
      url: z.url({ protocol: /^https$/ }).max(2048),
      event_types: z.array(z.enum(EVENT_TYPES)).min(1).optional(),
      description: z.string().max(500).optional(),
    }),
    response: WebhookEndpoint.extend({ secret: z.string().nullable().describe('Shown once; null on a replay') }),
    status: 201,
    problems: [400, 409, 422],
  }),
  defineRoute({
    operationId: 'list_webhooks',
    method: 'GET',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'List event-notification endpoints',
    scope: 'manage:webhooks',
    kind: 'read',
    planned: 'available',
    query: z.strictObject(pageQuery),
    response: page(WebhookEndpoint),
    problems: [400],
  }),
  defineRoute({
    operationId: 'delete_webhook',
    method: 'DELETE',
    path: '/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'Delete an event-notification endpoint',
    description: "200 with `{id, deleted: true}`. An unknown id or another workspace's endpoint ⇒ 404; a replay with the same Idempotency-Key ⇒ the same 200.",
    scope: 'manage:webhooks',
    kind: 'write',
    planned: 'available',
    params: idParam('webhook endpoint'),
    response: Deleted('webhook_endpoint'),
    problems: [400, 404, 409],
    async handler({ tx, workspace, params, now }) {
      if (!(await deleteWebhookEndpoint(tx, workspace.id, params.id, now))) {
        throw new ApiProblem('not-found', `No webhook endpoint "${params.id}" in this workspace.`);
      }
      return { status: 200, body: { id: params.id, object: 'webhook_endpoint', deleted: true } };
    },
  }),
];
