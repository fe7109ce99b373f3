/**
 * Each event type is one declaration (src/<module>/events.ts, gathered by compose/events.ts):
 * its example is a payload its schema takes member for member, docs/webhooks.md shows exactly
 * that example for every type, and openapi.json's `webhooks` has one entry per type whose body
 * is the delivered message with the declared payload schema. What is really emitted is held to
 * the same schemas by event-shapes.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { capabilityReader } from '../../src/api/capabilities.js';
import { docsPage } from '../../src/api/docs-page.js';
import { buildOpenApi } from '../../src/api/openapi.js';
import { jsonSchema } from '../../src/api/schemas.js';
import { EVENT_TYPES, EVENTS, eventDeclaration } from '../../src/compose/events.js';
import { documentedWebhooks, ROUTES } from '../../src/compose/modules.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The messages in the ```json blocks of docs/webhooks.md's "## Event types", in order. */
function documentedMessages(): Json[] {
  const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const start = doc.indexOf('\n## Event types\n');
  expect(start).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return [...doc.slice(start, end < 0 ? undefined : end).matchAll(/```json\n([\s\S]*?)```/g)].map(([, block]) => JSON.parse(block!) as Json);
}

describe('the event declarations', () => {
  it('name the eight event types of SPEC, in its order, once each', () => {
    expect(EVENT_TYPES).toEqual(['deal.created', 'deal.updated', 'deal.stage_changed', 'contact.created', 'store.entered', 'store.exited', 'store.signal', 'watch.health_changed']);
    expect(EVENTS.map((e) => e.type)).toEqual([...EVENT_TYPES]);
  });

  for (const e of EVENTS) {
    it(`give ${e.type} a summary, a description and an example its payload schema takes as it is`, () => {
      expect(e.summary.length).toBeGreaterThan(0);
      expect(e.description.length).toBeGreaterThan(0);
      const parsed = e.payload.safeParse(e.example);
      expect(parsed.success, parsed.error?.message).toBe(true);
      expect(parsed.data).toEqual(e.example);
      expect(eventDeclaration(e.type)).toBe(e);
    });
  }

  it('refuse a payload that lacks a member or has one of the wrong kind', () => {
    const stage = eventDeclaration('deal.stage_changed');
    const { version: _v, ...noVersion } = stage.example;
    expect(stage.payload.safeParse(noVersion).success).toBe(false);
    expect(stage.payload.safeParse({ ...stage.example, to: 'closed' }).success).toBe(false);
  });

  it('are what docs/webhooks.md shows: one message per type, its data the declared example', () => {
    const messages = documentedMessages();
    expect(messages.map((m) => m.type)).toEqual([...EVENT_TYPES]);
    for (const m of messages) expect(m.data, `the example of ${m.type} in docs/webhooks.md`).toEqual(eventDeclaration(m.type).example);
  });

  it("are openapi.json's webhooks: the delivered message with the declared payload, signed", () => {
    const doc = buildOpenApi(ROUTES, capabilityReader(), documentedWebhooks()) as Json;
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_TYPES]);
    for (const e of EVENTS) {
      const post = doc.webhooks[e.type].post;
      const body = post.requestBody.content['application/json'];
      expect(body.schema.required).toEqual(['id', 'type', 'created_at', 'workspace_id', 'sequence', 'data']);
      expect(body.schema.properties.type).toEqual({ type: 'string', const: e.type });
      expect(body.schema.properties.data).toEqual(jsonSchema(e.payload, 'output'));
      expect(body.example).toMatchObject({ type: e.type, data: e.example });
      const headers = post.parameters.map((p: Json) => doc.components.parameters[p.$ref.split('/').pop()].name);
      expect(headers).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'webhook-sequence']);
    }
  });

  it('are listed on the HTML reference (/docs) with their summary and example', () => {
    const page = docsPage(buildOpenApi(ROUTES, capabilityReader(), documentedWebhooks()));
    for (const e of EVENTS) {
      expect(page).toContain(`<section id="webhook-${e.type}">`);
      expect(page).toContain(e.summary.replace(/'/g, '&#39;'));
    }
  });
});
