/** Deals: pipeline of the workspace (designed; unavailable until the pipeline work implements it). */
import { z } from 'zod';
import { DEAL_STAGES } from '../../pipeline/stages.js';
import { defineRoute } from '../route-def.js';
import { IF_MATCH, idParam, page, pageQuery } from '../schemas.js';

const Deal = z.object({
  object: z.literal('deal'),
  id: z.string(),
  store_id: z.string(),
  name: z.string(),
  stage: z.enum(DEAL_STAGES),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  owner_email: z.string().nullable(),
  version: z.number().int().describe('Increases on every change; send it as If-Match'),
  created_at: z.string(),
  updated_at: z.string(),
});

const DealNote = z.object({ object: z.literal('deal_note'), id: z.string(), deal_id: z.string(), body: z.string(), created_at: z.string() });

const dealFields = {
  name: z.string().min(1).max(200),
  amount: z.number().nonnegative().nullable().optional(),
  currency: z.string().length(3).optional(),
  owner_email: z.email().optional(),
};

const common = { tag: 'Deals', planned: 'available' as const };

export const dealRoutes = [
  defineRoute({
    ...common,
    operationId: 'list_deals',
    method: 'GET',
    path: '/deals',
    summary: 'List deals',
    scope: 'read:accounts',
    kind: 'read',
    query: z.strictObject({ ...pageQuery, store_id: z.string().optional(), stage: z.enum(DEAL_STAGES).optional() }),
    response: page(Deal),
    problems: [400],
  }),
  defineRoute({
    ...common,
    operationId: 'get_deal',
    method: 'GET',
    path: '/deals/{id}',
    summary: 'Read a deal',
    scope: 'read:accounts',
    kind: 'read',
    params: idParam('deal'),
    response: Deal,
    problems: [404],
  }),
  defineRoute({
    ...common,
    operationId: 'create_deal',
    method: 'POST',
    path: '/deals',
    summary: 'Create a deal',
    description: 'Emits `deal.created`.',
    scope: 'write:deals',
    kind: 'write',
    body: z.strictObject({ store_id: z.string().min(1), stage: z.enum(DEAL_STAGES).default('discovery'), ...dealFields }),
    response: Deal,
    status: 201,
    problems: [400, 409, 422],
  }),
  defineRoute({
    ...common,
    operationId: 'update_deal',
    method: 'PATCH',
    path: '/deals/{id}',
    summary: 'Update a deal',
    description: 'Emits `deal.updated`. A stale If-Match version ⇒ 409.',
    scope: 'write:deals',
    kind: 'write',
    params: idParam('deal'),
    headers: IF_MATCH,
    body: z.strictObject({ name: dealFields.name.optional(), amount: dealFields.amount, currency: dealFields.currency, owner_email: dealFields.owner_email }),
    response: Deal,
    problems: [400, 404, 409, 422],
  }),
  defineRoute({
    ...common,
    operationId: 'move_deal_stage',
    method: 'POST',
    path: '/deals/{id}/stage',
    summary: 'Move a deal to another stage',
    description: 'Emits only `deal.stage_changed`. A stale If-Match version ⇒ 409.',
    scope: 'write:deals',
    kind: 'write',
    params: idParam('deal'),
    headers: IF_MATCH,
    body: z.strictObject({ stage: z.enum(DEAL_STAGES) }),
    response: Deal,
    problems: [400, 404, 409, 422],
  }),
  defineRoute({
    ...common,
    operationId: 'add_deal_note',
    method: 'POST',
    path: '/deals/{id}/notes',
    summary: 'Add a note to a deal',
    description: 'Emits no event.',
    scope: 'write:deals',
    kind: 'write',
    params: idParam('deal'),
    body: z.strictObject({ body: z.string().min(1).max(10_000) }),
    response: DealNote,
    status: 201,
    problems: [400, 404, 409],
  }),
];
