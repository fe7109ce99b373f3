/**
 * The deals module's events (emitted by pipeline.ts, in the transaction of the change), and
 * the deal as the API and these events show it. A leaf: zod, src/core and the stage vocabulary.
 */
import { z } from 'zod';
import { type CatalogueEntry, defineEvent } from '../core/event-declaration.js';
import { DEAL_STAGES, LOST_REASONS } from '../core/deal-stages.js';

export const Deal = z
  .object({
    object: z.literal('deal'),
    id: z.string(),
    store_id: z.string().describe('The account (store) the deal is with'),
    title: z.string(),
    value: z.number().nullable().describe('Deal value in `currency`'),
    currency: z.string().nullable().describe('ISO 4217'),
    stage: z.enum(DEAL_STAGES),
    owner_email: z.string().nullable().describe('Who owns the deal (trimmed, domain lower-cased)'),
    expected_close_date: z.string().nullable().describe('YYYY-MM-DD'),
    lost_reason: z.enum(LOST_REASONS).nullable().describe('Why it was lost, while the stage is `lost`'),
    lost_reason_other: z.string().nullable().describe('The free text of lost_reason `other`'),
    version: z.number().int().describe('1 at creation, +1 on every change; a change made only while the deal is at this version names it'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ description: 'A deal of the pipeline' });

const FieldValue = z.union([z.string(), z.number(), z.null()]);

const actor = z.string().describe('Who made the change: `key:<key id>` for a change made through the API');

const DEAL_ID = 'deal_01a20af35a890000018aa6d63c';
const STORE_ID = 's-000123';
const ACTOR = 'key:key_910fe256b3cf1ff814e5';
const exampleDeal = (value: number, version: number, updatedAt: string): z.input<typeof Deal> => ({
  object: 'deal',
  id: DEAL_ID,
  store_id: STORE_ID,
  title: 'Spring relaunch',
  value,
  currency: 'EUR',
  stage: 'discovery',
  owner_email: null,
  expected_close_date: null,
  lost_reason: null,
  lost_reason_other: null,
  version,
  created_at: '2026-11-23T10:04:12.345Z',
  updated_at: updatedAt,
});

export const DEAL_EVENTS = [
  defineEvent({
    type: 'deal.created',
    summary: 'A deal was created (create_deal)',
    description: 'Emitted by `create_deal`, in the transaction that creates the deal.',
    payload: z.object({
      deal_id: z.string(),
      store_id: z.string(),
      deal: Deal.describe('The deal as `get_deal` answers it'),
      actor,
      created_at: z.string(),
    }),
    example: { deal_id: DEAL_ID, store_id: STORE_ID, deal: exampleDeal(12000, 1, '2026-11-23T10:04:12.345Z'), actor: ACTOR, created_at: '2026-11-23T10:04:12.345Z' },
  }),
  defineEvent({
    type: 'deal.updated',
    summary: "A deal's fields changed (update_deal)",
    description: 'Emitted by `update_deal` when a field really changes (a change that changes nothing emits nothing). The stage is not a field: a stage move emits only `deal.stage_changed`.',
    payload: z.object({
      deal_id: z.string(),
      store_id: z.string(),
      deal: Deal.describe('The deal after the change'),
      changes: z.array(z.object({ field: z.string(), from: FieldValue, to: FieldValue })).describe('One entry per changed field'),
      actor,
      changed_at: z.string(),
    }),
    example: {
      deal_id: DEAL_ID,
      store_id: STORE_ID,
      deal: exampleDeal(15000, 2, '2026-11-23T10:05:00.000Z'),
      changes: [{ field: 'value', from: 12000, to: 15000 }],
      actor: ACTOR,
      changed_at: '2026-11-23T10:05:00.000Z',
    },
  }),
  defineEvent({
    type: 'deal.stage_changed',
    summary: 'A deal moved to another stage (move_deal_stage)',
    description: 'Emitted by `move_deal_stage` (only this event, not `deal.updated`).',
    payload: z.object({
      deal_id: z.string(),
      store_id: z.string(),
      from: z.enum(DEAL_STAGES),
      to: z.enum(DEAL_STAGES),
      version: z.number().int().describe("The deal's version after the move: the If-Match of the next change"),
      changed_at: z.string(),
      actor,
      lost_reason: z.enum(LOST_REASONS).nullable().describe('Set when `to` is `lost`'),
      lost_reason_other: z.string().nullable().describe('The free text of lost_reason `other`'),
    }),
    example: {
      deal_id: DEAL_ID,
      store_id: STORE_ID,
      from: 'discovery',
      to: 'proposal',
      version: 2,
      changed_at: '2026-11-23T10:06:00.000Z',
      actor: ACTOR,
      lost_reason: null,
      lost_reason_other: null,
    },
  }),
] as const;

/** The catalogue (compose/events.ts) finds this list and orders it by its place, docs/webhooks.md's order. */
export const catalogue: CatalogueEntry = { place: 10, events: DEAL_EVENTS };

declare module '../core/event-declaration.js' {
  interface EventCatalog {
    deals: typeof DEAL_EVENTS;
  }
}
