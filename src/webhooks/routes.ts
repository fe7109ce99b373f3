/**
 * Event-notification endpoints (webhooks): registration, listing, changes, deletion, secret
 * rotation, the delivery log, retry, recovery and test events. The delivery worker
 * (webhooks/deliver.ts) sends what these schedule.
 */
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from './tables.js';
import {
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  lockEndpoint,
  insertWebhookEndpoint,
  lockedEndpointCount,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  WEBHOOK_ENDPOINTS_MAX,
} from './endpoints-store.js';
import { findDelivery, insertTestMessage, listDeliveries, recoverEvents, retryDelivery } from './messages-store.js';
import { RETENTION_MS, ROTATION_OVERLAP_MS } from './deliver.js';
import type { OutboundRuntime } from '../outbound/runtime.js';
import { newSigningSecret } from '../outbound/secrets.js';
import { checkTarget, RefusedTarget } from '../outbound/ssrf.js';
import { listPager } from '../api/cursor.js';
import { ApiProblem, found } from '../api/problems.js';
import { defineRoute } from '../api/route-def.js';
import { Deleted, idParam, page, pagedUnder, pageQuery, patchBody } from '../api/schemas.js';
import { TARGET_URL_MAX, targetUrl } from '../core/target-url.js';

/** The event types a caller may subscribe to: the catalogue's (compose/events.ts), handed in by the composition. */
export type EventTypeList = readonly [string, ...string[]];

/** The URL rule the outreach sender's `--url` follows too (core/target-url.ts). */
const Url = z
  .string()
  .transform((raw, ctx) => {
    const r = targetUrl(raw);
    if ('url' in r) return r.url;
    ctx.addIssue({ code: 'custom', message: r.refusal });
    return z.NEVER;
  })
  .meta({ format: 'uri' })
  .describe(`https URL (http only with the local-development setting), at most ${TARGET_URL_MAX} characters, without a fragment or credentials; blanks around it are trimmed`);

/** The endpoint's schemas, which name the event types. */
function endpointSchemas(eventTypes: EventTypeList) {
  const EventTypes = z.array(z.enum(eventTypes)).min(1);
  const WebhookEndpoint = z.object({
    object: z.literal('webhook_endpoint'),
    id: z.string(),
    url: z.string(),
    event_types: z.array(z.enum(eventTypes)).nullable().describe('null: every event type'),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().describe('Why the endpoint is disabled (by a PATCH, a 410 answer, or five days of failed deliveries)'),
    disabled_at: z.string().nullable(),
    previous_secret_expires_at: z.string().nullable().describe('Until then the secret before the last rotation also signs every delivery'),
    created_at: z.string(),
  });

  const WithSecret = WebhookEndpoint.extend({
    secret: z.string().nullable().describe('The signing secret (`whsec_…`), shown once; null on an idempotent replay'),
    secret_note: z.string().optional().describe('Why `secret` is null'),
  });
  return { EventTypes, WebhookEndpoint, WithSecret };
}

type EndpointSchemas = ReturnType<typeof endpointSchemas>;

const Attempt = z.object({
  attempt: z.int(),
  at: z.string(),
  status_code: z.int().nullable(),
  duration_ms: z.int(),
  error: z.string().nullable(),
  next_retry_at: z.string().nullable(),
});

const Delivery = z.object({
  object: z.literal('webhook_delivery'),
  id: z.string().describe('The `webhook-id` of every attempt of this message'),
  endpoint_id: z.string(),
  event: z.object({ id: z.string(), type: z.string() }),
  sequence: z.int().describe('Per-endpoint sequence number: receivers order by it and spot gaps'),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(Attempt),
  last_status_code: z.int().nullable(),
  last_error: z.string().nullable(),
  next_retry_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function endpointOut(ep: WebhookEndpointRow, nowMs: number): z.output<EndpointSchemas['WebhookEndpoint']> {
  const until = ep.previous_secret_until_ms === null ? null : Number(ep.previous_secret_until_ms);
  return {
    object: 'webhook_endpoint',
    id: ep.id,
    url: ep.url,
    event_types: ep.event_types === null ? null : (JSON.parse(ep.event_types) as string[]),
    description: ep.description,
    enabled: ep.disabled_at === null,
    disabled_reason: ep.disabled_reason,
    disabled_at: ep.disabled_at,
    previous_secret_expires_at: until !== null && until > nowMs ? iso(until) : null,
    created_at: ep.created_at,
  };
}

function deliveryOut(d: WebhookDeliveryRow, attempts: readonly WebhookAttemptRow[]): z.output<typeof Delivery> {
  return {
    object: 'webhook_delivery',
    id: d.id,
    endpoint_id: d.endpoint_id,
    event: { id: d.event_id, type: d.event_type },
    sequence: Number(d.seq),
    status: d.status,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      at: iso(a.started_ms)!,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      next_retry_at: iso(a.next_retry_ms),
    })),
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    next_retry_at: d.status === 'pending' ? iso(d.next_attempt_ms) : null,
    created_at: iso(d.created_ms)!,
    delivered_at: iso(d.delivered_ms),
  };
}

/**
 * The guard at registration (and on a URL change), run before the transaction (it resolves the
 * host): why the URL is refused, or null. A host that does not resolve is refused here, before
 * the Idempotency-Key is looked at: that may pass, and the same request sent again with the same
 * key must then run, not replay the refusal. (So a replay of an earlier success whose host has
 * stopped resolving answers this refusal too, until it resolves and the replay answers.) Any
 * other refusal is the operation's answer, kept with the key.
 */
async function urlRefusal(url: string | undefined, outbound: OutboundRuntime): Promise<string | null> {
  if (url === undefined) return null;
  try {
    await checkTarget(url, outbound.guard);
    return null;
  } catch (e) {
    if (e instanceof RefusedTarget && e.unresolved) throw new ApiProblem('unprocessable', `The URL cannot receive deliveries now: ${e.message}. This answer is not kept with the Idempotency-Key: send the same request again once the name resolves.`);
    if (e instanceof RefusedTarget) return e.message;
    throw e;
  }
}

/** A refused URL ⇒ 422 with the reason. */
function refuseUrl(prepared: unknown): void {
  if (typeof prepared === 'string') throw new ApiProblem('unprocessable', `The URL cannot receive deliveries: ${prepared}.`);
}

const noEndpoint = (id: string) => new ApiProblem('not-found', `No webhook endpoint "${id}" in this workspace.`);

async function endpointOr404(q: Kysely<Database>, workspaceId: string, id: string): Promise<WebhookEndpointRow> {
  return found(findWebhookEndpoint(q, workspaceId, id), () => noEndpoint(id));
}

/** The live endpoint locked for the rest of tx (a deletion under way is waited for: then 404). */
async function lockedEndpointOr404(tx: Kysely<Database>, workspaceId: string, id: string): Promise<WebhookEndpointRow> {
  return found(lockEndpoint(tx, workspaceId, id), () => noEndpoint(id));
}

/**
 * The endpoint, locked, for a call that sends to it (test, retry, recover): a disabled endpoint
 * receives nothing, so a message scheduled for it would only wait unseen ⇒ 409 saying so.
 */
async function sendableEndpoint(tx: Kysely<Database>, workspaceId: string, id: string): Promise<WebhookEndpointRow> {
  const ep = await lockedEndpointOr404(tx, workspaceId, id);
  if (ep.disabled_at !== null) {
    throw new ApiProblem('conflict', `Webhook endpoint "${id}" is disabled (${ep.disabled_reason ?? 'disabled'}) and receives nothing; enable it with PATCH {"enabled": true} first.`);
  }
  return ep;
}

/** The endpoint with its new signing secret, shown this once: a replay answers it with `secret: null` and why. */
function withSecret(ep: WebhookEndpointRow, secret: string, now: Date, status: 200 | 201): { status: 200 | 201; body: z.output<EndpointSchemas['WithSecret']>; replayBody: z.output<EndpointSchemas['WithSecret']> } {
  const out = endpointOut(ep, now.getTime());
  return { status, body: { ...out, secret }, replayBody: { ...out, secret: null, secret_note: REPLAY_NOTE } };
}

const REPLAY_NOTE = 'The secret is shown only in the first response to this request and is not kept in plain text; if it was lost, rotate it (POST /webhooks/{id}/rotate-secret).';

const common = { tag: 'Webhooks', scope: 'manage:webhooks', planned: 'available' } as const;
const endpointParams = idParam('webhook endpoint');
const deliveryParams = z.strictObject({
  id: z.string().min(1).max(200).describe('Identifier of the webhook endpoint'),
  delivery_id: z.string().min(1).max(200).describe('Identifier of the delivery (its webhook-id)'),
});

export function webhookRoutes(eventTypes: EventTypeList) {
  const { EventTypes, WebhookEndpoint, WithSecret } = endpointSchemas(eventTypes);
  return [
  defineRoute({
    ...common,
    operationId: 'register_webhook',
    method: 'POST',
    path: '/webhooks',
    summary: 'Register an event-notification endpoint',
    description:
      'Registers an https URL whose host resolves to public addresses only, up to ' + WEBHOOK_ENDPOINTS_MAX + ' endpoints a workspace (disabled ones count, deleted ones do not; one more ⇒ 422). Leaving out `event_types` delivers every event type. The signing secret is returned once, in this response; a replay with the same Idempotency-Key returns the endpoint with `secret: null` and says why. Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). A URL the SSRF guard refuses ⇒ 422.',
    kind: 'write',
    body: z.strictObject({
      url: Url,
      event_types: EventTypes.optional(),
      description: z.string().max(500).optional(),
    }),
    response: WithSecret,
    location: '/webhooks/{id}',
    status: 201,
    problems: [400, 409, 422],
    prepare: ({ body, outbound }) => urlRefusal(body.url, outbound),
    async handler({ tx, workspace, body, now, outbound, prepared }) {
      refuseUrl(prepared);
      const existing = await lockedEndpointCount(tx, workspace.id);
      if (existing >= WEBHOOK_ENDPOINTS_MAX) {
        throw new ApiProblem('unprocessable', `A workspace has at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints (disabled ones count, deleted ones do not); this one has ${existing}. Delete one, or give an existing one more event types.`);
      }
      const secret = newSigningSecret();
      const ep = await insertWebhookEndpoint(tx, workspace.id, { url: body.url, event_types: body.event_types ? [...new Set(body.event_types)] : null, description: body.description ?? null, sealedSecret: outbound.box.seal(secret) }, now);
      return withSecret(ep, secret, now, 201);
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_webhooks',
    method: 'GET',
    path: '/webhooks',
    summary: 'List event-notification endpoints',
    description: 'Oldest first. Secrets are never shown.',
    kind: 'read',
    query: z.strictObject(pageQuery),
    response: page(WebhookEndpoint),
    problems: [400],
    async handler({ tx, workspace, query, now, cursorSecret }) {
      const p = listPager(cursorSecret, workspace.id, { list: 'webhooks' }, query.cursor);
      const rows = await listWebhookEndpoints(tx, workspace.id, query.limit + 1, p.after && { created_at: new Date(p.after.s).toISOString(), id: p.after.i });
      return { status: 200, body: p.page(rows, query.limit, (ep) => ({ s: Date.parse(ep.created_at), i: ep.id }), (ep) => endpointOut(ep, now.getTime())) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'get_webhook',
    method: 'GET',
    path: '/webhooks/{id}',
    summary: 'Read an event-notification endpoint',
    description: 'The secret is never shown. An unknown id or another workspace\'s endpoint ⇒ 404.',
    kind: 'read',
    params: endpointParams,
    response: WebhookEndpoint,
    problems: [404],
    async handler({ tx, workspace, params, now }) {
      return { status: 200, body: endpointOut(await endpointOr404(tx, workspace.id, params.id), now.getTime()) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'update_webhook',
    method: 'PATCH',
    path: '/webhooks/{id}',
    summary: 'Change an event-notification endpoint',
    description:
      'Changes the URL (checked like at registration), the event types (null: every type), the description, or enables/disables the endpoint; a body naming none ⇒ 400. Enabling clears the reason it was disabled; events that happened while it was disabled are not sent (use recover).',
    kind: 'write',
    params: endpointParams,
    body: patchBody({
      url: Url.optional(),
      event_types: EventTypes.nullable().optional(),
      description: z.string().max(500).nullable().optional(),
      enabled: z.boolean().optional(),
    }),
    response: WebhookEndpoint,
    problems: [400, 404, 409, 422],
    prepare: ({ body, outbound }) => urlRefusal(body.url, outbound),
    async handler({ tx, workspace, params, body, now, prepared }) {
      await endpointOr404(tx, workspace.id, params.id);
      refuseUrl(prepared);
      const ep = await updateWebhookEndpoint(tx, workspace.id, params.id, { ...body, event_types: body.event_types && [...new Set(body.event_types)] }, now);
      if (!ep) throw noEndpoint(params.id);
      return { status: 200, body: endpointOut(ep, now.getTime()) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'delete_webhook',
    method: 'DELETE',
    path: '/webhooks/{id}',
    summary: 'Delete an event-notification endpoint',
    description: "200 with `{id, deleted: true}`; nothing more is sent to it. An unknown id or another workspace's endpoint ⇒ 404; a replay with the same Idempotency-Key ⇒ the same 200.",
    kind: 'write',
    params: endpointParams,
    response: Deleted('webhook_endpoint'),
    problems: [400, 404, 409],
    async handler({ tx, workspace, params, now }) {
      if (!(await deleteWebhookEndpoint(tx, workspace.id, params.id, now))) throw noEndpoint(params.id);
      return { status: 200, body: { id: params.id, object: 'webhook_endpoint' as const, deleted: true as const } };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'rotate_webhook_secret',
    destructive: true,
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    summary: "Rotate an endpoint's signing secret",
    description:
      'Returns the new secret once. For 24 hours every delivery carries two signatures (new and previous secret), so the receiver can switch without losing a message. A replay with the same Idempotency-Key returns the endpoint with `secret: null`.',
    kind: 'write',
    params: endpointParams,
    response: WithSecret,
    problems: [400, 404, 409],
    async handler({ tx, workspace, params, now, outbound }) {
      await endpointOr404(tx, workspace.id, params.id);
      const secret = newSigningSecret();
      const ep = await rotateWebhookSecret(tx, workspace.id, params.id, outbound.box.seal(secret), now.getTime() + ROTATION_OVERLAP_MS, now);
      if (!ep) throw noEndpoint(params.id);
      return withSecret(ep, secret, now, 200);
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_webhook_deliveries',
    path: '/webhooks/{id}/deliveries',
    summary: "An endpoint's delivery log",
    description: 'Newest first: each message with its event, every attempt (status code, duration, error, next retry) and its state. Kept 30 days.',
    ...pagedUnder(endpointParams),
    response: page(Delivery),
    async handler({ tx, workspace, params, query, cursorSecret }) {
      await endpointOr404(tx, workspace.id, params.id);
      const p = listPager(cursorSecret, workspace.id, { deliveries: params.id }, query.cursor);
      const rows = await listDeliveries(tx, params.id, query.limit + 1, p.after && { created_ms: p.after.s, id: p.after.i });
      return { status: 200, body: p.page(rows, query.limit, (r) => ({ s: Number(r.delivery.created_ms), i: r.delivery.id }), (r) => deliveryOut(r.delivery, r.attempts)) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'retry_webhook_delivery',
    method: 'POST',
    path: '/webhooks/{id}/deliveries/{delivery_id}/retry',
    summary: 'Send a delivery again now',
    description: 'Schedules the message again at once, with the same `webhook-id` and a fresh retry schedule (delivered, failed or pending alike); 409 while a worker is sending it, or when the endpoint is disabled.',
    kind: 'write',
    params: deliveryParams,
    response: Delivery,
    problems: [400, 404, 409],
    async handler({ tx, workspace, params, now }) {
      await sendableEndpoint(tx, workspace.id, params.id);
      const retried = await retryDelivery(tx, params.id, params.delivery_id, now);
      if (retried === 'missing') throw new ApiProblem('not-found', `No delivery "${params.delivery_id}" of webhook endpoint "${params.id}".`);
      if (retried === 'in-flight') throw new ApiProblem('conflict', `Delivery "${params.delivery_id}" is being sent right now; retry it once that attempt has ended (its outcome shows in the log).`);
      const found = (await findDelivery(tx, params.id, params.delivery_id))!;
      return { status: 200, body: deliveryOut(found.delivery, found.attempts) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'recover_webhook_events',
    method: 'POST',
    path: '/webhooks/{id}/recover',
    summary: 'Send every event of a time window again',
    description:
      'After a receiver outage: every event of the endpoint\'s types that happened in [since, until] is sent again (a message that exists keeps its webhook-id). Events are kept 30 days: an older `since` ⇒ 422. A disabled endpoint ⇒ 409 (enable it first).',
    kind: 'write',
    params: endpointParams,
    body: z.strictObject({ since: z.iso.datetime({ offset: true }), until: z.iso.datetime({ offset: true }) }),
    response: z.object({ object: z.literal('webhook_recovery'), endpoint_id: z.string(), since: z.string(), until: z.string(), scheduled: z.int() }),
    problems: [400, 404, 409, 422],
    async handler({ tx, workspace, params, body, now }) {
      const ep = await sendableEndpoint(tx, workspace.id, params.id);
      const since = new Date(body.since);
      const until = new Date(body.until);
      if (since > until) throw new ApiProblem('unprocessable', '`since` is after `until`.');
      if (since.getTime() < now.getTime() - RETENTION_MS) throw new ApiProblem('unprocessable', 'Events are kept 30 days: `since` must be within the last 30 days.');
      const scheduled = await recoverEvents(tx, ep, since.toISOString(), until.toISOString(), now);
      return { status: 200, body: { object: 'webhook_recovery' as const, endpoint_id: ep.id, since: since.toISOString(), until: until.toISOString(), scheduled } };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'test_webhook',
    method: 'POST',
    path: '/webhooks/{id}/test',
    summary: 'Send a signed test event',
    description: 'Sends a `webhook.test` event to the endpoint, signed like every delivery; it appears in the delivery log. A disabled endpoint ⇒ 409.',
    kind: 'write',
    params: endpointParams,
    response: Delivery,
    problems: [400, 404, 409],
    async handler({ tx, workspace, params, now }) {
      const ep = await sendableEndpoint(tx, workspace.id, params.id);
      const d = await insertTestMessage(
        tx,
        ep,
        (sequence, id) => ({ id, type: 'webhook.test', created_at: now.toISOString(), workspace_id: workspace.id, sequence, data: { endpoint_id: ep.id, message: 'A test event from storelens.' } }),
        now,
      );
      return { status: 200, body: deliveryOut(d, []) };
    },
  }),
];
}
