/**
 * openapi.json's `webhooks` (OpenAPI 3.1): one entry per declared event type (the catalogue, compose/events.ts),
 * describing the POST a registered endpoint receives — the message as deliver.ts sends it
 * (`{id, type, created_at, workspace_id, sequence, data}`, `data` the event's payload schema)
 * and its Standard Webhooks headers.
 */
import { jsonSchema } from '../api/schemas.js';
import type { EventDeclaration } from '../core/event-declaration.js';
import { PER_ENDPOINT } from './deliver.js';

type Json = Record<string, unknown>;

/** The headers of every delivery, as components.parameters of openapi.json. */
export const WEBHOOK_HEADERS: Record<string, Json> = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id (`msg_…`): the same on every retry of this message; use it to drop duplicates.',
    schema: { type: 'string' },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; refuse old timestamps (the `standardwebhooks` library allows 5 minutes).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint\'s secret after `whsec_` (Standard Webhooks). During a secret rotation two signatures separated by a space (new secret, previous one): the message is genuine when any one matches.',
    schema: { type: 'string' },
  },
  WebhookSequence: {
    name: 'webhook-sequence',
    in: 'header',
    required: true,
    description: "The message's number among this endpoint's messages (the body's `sequence`).",
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
};

/** An example message around an event's example payload. */
const exampleMessage = (type: string, data: unknown) => ({ id: 'evt_8b367e69e607401cdb4a', type, created_at: '2026-11-23T10:04:12.345Z', workspace_id: 'ws_befccae793ecb10908e2', sequence: 14, data });

/** The `webhooks` object of openapi.json, keyed by event type, in the catalog's order. */
export function webhooksSection(events: readonly EventDeclaration[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const e of events) {
    const schema = {
      type: 'object',
      description: `The message of one \`${e.type}\` event, as the endpoint receives it.`,
      properties: {
        id: { type: 'string', description: "The event's id (`evt_…`): the same event sent to two endpoints has the same id" },
        type: { type: 'string', const: e.type },
        created_at: { type: 'string', description: 'When the change happened (ISO 8601, UTC)' },
        workspace_id: { type: 'string' },
        sequence: { type: 'integer', minimum: 1, description: "Counts this endpoint's messages: 1, 2, 3, … (order by it; a gap is a message still on its way or failed)" },
        data: jsonSchema(e.payload, 'output'),
      },
      required: ['id', 'type', 'created_at', 'workspace_id', 'sequence', 'data'],
      additionalProperties: false,
    };
    out[e.type] = {
      post: {
        summary: e.summary,
        description: `${e.description}\n\nSent to every enabled endpoint whose \`event_types\` include it (or are null), written in the same transaction as the change it describes and delivered at least once: answer 2xx within 15 seconds, and drop duplicates by \`webhook-id\`. At most ${PER_ENDPOINT} messages per endpoint are in flight at once.`,
        tags: ['Webhooks'],
        parameters: Object.keys(WEBHOOK_HEADERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema, example: exampleMessage(e.type, e.example) } },
        },
        responses: {
          '2XX': { description: 'Delivered. Any other answer (or none within 15 seconds, or a redirect) is a failure, retried with backoff; 410 disables the endpoint.' },
        },
      },
    };
  }
  return out;
}
