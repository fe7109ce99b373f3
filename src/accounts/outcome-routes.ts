/** Outcomes: operator decisions written back; each one becomes a learning label. */
import { z } from 'zod';
import { newId } from '../db/ids.js';
import { outcomeWrites } from './outcomes.js';
import { DEAL_STAGES, LOST_REASONS } from '../core/deal-stages.js';
import { defineRoute } from '../api/route-def.js';

/** SPEC's Outcome table, including the conditional lost_reason / lost_reason_other; unknown fields ⇒ 400. */
export const OutcomeInput = z
  .strictObject({
    store_id: z.string().describe('Any string; an unknown store is accepted and becomes a label once it matches a visible account'),
    action: z.enum(DEAL_STAGES),
    value: z.number().optional().describe('Deal value, meant for action `won`'),
    occurred_at: z.string().optional().describe('Any string'),
    note: z.string().optional(),
    lost_reason: z.enum(LOST_REASONS).optional().describe('Required when action is `lost`'),
    lost_reason_other: z.string().optional().describe('Required when lost_reason is `other`'),
  })
  .superRefine((o, ctx) => {
    if (o.action === 'lost' && o.lost_reason === undefined) {
      ctx.addIssue({ code: 'custom', path: ['lost_reason'], message: 'lost_reason is required when action is "lost"' });
    }
    if (o.lost_reason === 'other' && o.lost_reason_other === undefined) {
      ctx.addIssue({ code: 'custom', path: ['lost_reason_other'], message: 'lost_reason_other is required when lost_reason is "other"' });
    }
  })
  .meta({
    title: 'Outcome',
    allOf: [
      { if: { properties: { action: { const: 'lost' } }, required: ['action'] }, then: { required: ['lost_reason'] } },
      { if: { properties: { lost_reason: { const: 'other' } }, required: ['lost_reason'] }, then: { required: ['lost_reason_other'] } },
    ],
  });

export const RecordedOutcome = z.object({
  object: z.literal('outcome'),
  id: z.string(),
  store_id: z.string(),
  action: z.enum(DEAL_STAGES),
  value: z.number().nullable(),
  occurred_at: z.string().nullable(),
  note: z.string().nullable(),
  lost_reason: z.enum(LOST_REASONS).nullable(),
  lost_reason_other: z.string().nullable(),
  recorded_at: z.string(),
});

export const outcomeRoutes = [
  defineRoute({
    operationId: 'record_outcome',
    method: 'POST',
    path: '/outcomes',
    tag: 'Outcomes',
    summary: 'Record an outcome',
    description: 'Records an outreach outcome for a store; it becomes a learning label that improves the workspace ranking. Success is 200 with the recorded outcome.',
    scope: 'write:outcomes',
    kind: 'write',
    planned: 'available',
    body: OutcomeInput,
    triggers: ['refresh'],
    response: RecordedOutcome,
    problems: [400, 409],
    // The answer is made here (id, time), so the outcome's insert, the stop of the store's outreach
    // on a won or lost outcome (outreach/module.ts) and the answer kept for replays are written
    // together: one statement on PostgreSQL.
    async plan({ db, workspace, key, body, now }) {
      const id = newId('out');
      const outcome = {
        id,
        store_id: body.store_id,
        action: body.action,
        value: body.value ?? null,
        occurred_at: body.occurred_at ?? null,
        note: body.note ?? null,
        lost_reason: body.lost_reason ?? null,
        lost_reason_other: body.lost_reason_other ?? null,
        recorded_at: now.toISOString(),
      };
      const row = { ...outcome, workspace_id: workspace.id, api_key_id: key.id };
      return {
        result: { status: 200, body: { object: 'outcome' as const, ...outcome } },
        writes: (when) => outcomeWrites(db.kysely, row, `outcome ${id} ${body.action}`, now, when),
      };
    },
  }),
];
