/** Deals: the workspace's pipeline — deals on its visible stores, their stages, notes and history. */
import { z } from 'zod';
import { storeVisible } from '../workspaces/visibility.js';
import { addDealNote, type ChangeResult, type Deal as DealView, getDeal, listDealHistory, listDealNotes, listDeals } from './store.js';
import { createDeal, moveDealStage, updateDeal } from './pipeline.js';
import { DEAL_STAGES, LOST_REASONS } from '../core/deal-stages.js';
import { STAGE_TRANSITIONS } from './stages.js';
import { Deal } from './events.js';
import { listPager } from '../api/cursor.js';
import { ApiProblem } from '../api/problems.js';
import { byIdRoute, defineRoute } from '../api/route-def.js';
import { CURRENCY_AS_SENT, Email, IF_MATCH, idParam, ifMatchVersion, page, pagedUnder, pageQuery, patchBody, storeId } from '../api/schemas.js';

const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

const CURRENCY_MESSAGE = 'must be an ISO 4217 currency code in capitals, e.g. EUR';
const Currency = z
  .string()
  // Not in capitals is not looked up as well: the one thing to fix is said once.
  .regex(CURRENCY_AS_SENT, { message: CURRENCY_MESSAGE, abort: true })
  .refine((c) => CURRENCIES.has(c), CURRENCY_MESSAGE)
  .describe('ISO 4217 code in capitals, e.g. `EUR`; one the server does not know (`XYZ`) ⇒ 400');
const CloseDate = z.iso.date().describe('YYYY-MM-DD');

const DealNote = z.object({
  object: z.literal('deal_note'),
  id: z.string(),
  deal_id: z.string(),
  body: z.string(),
  actor: z.string().describe('`key:<key id>` for a note added through the API'),
  created_at: z.string(),
});

const FieldValue = z.union([z.string(), z.number(), z.null()]);

const DealChange = z.object({
  object: z.literal('deal_change'),
  deal_id: z.string(),
  version: z.number().int().describe("The deal's version after the change"),
  kind: z.enum(['created', 'stage_changed', 'field_changed']),
  field: z.string().describe('`stage` for a creation or a stage move, else the field that changed'),
  from: FieldValue.describe('The value before (null for a creation)'),
  to: FieldValue.describe('The value after'),
  lost_reason: z.enum(LOST_REASONS).nullable().describe('For a move to (or a creation at) `lost`'),
  lost_reason_other: z.string().nullable(),
  actor: z.string().describe('`key:<key id>` for a change made through the API'),
  changed_at: z.string(),
});

const fields = {
  title: z.string().trim().min(1).max(200),
  value: z.number().nonnegative().max(1e15).nullable(),
  currency: Currency.nullable(),
  owner_email: Email.nullable(),
  expected_close_date: CloseDate.nullable(),
};

/** A stage and, for `lost`, its reason: exactly the rule of an Outcome. */
const stageInput = {
  stage: z.enum(DEAL_STAGES),
  lost_reason: z.enum(LOST_REASONS).optional().describe('Required when the stage is `lost` (and only then)'),
  lost_reason_other: z.string().trim().min(1).max(1000).optional().describe('Required when lost_reason is `other` (and only then)'),
};

function lostRule(o: { stage?: string; lost_reason?: string; lost_reason_other?: string }, ctx: z.RefinementCtx): void {
  if (o.stage === 'lost' && o.lost_reason === undefined) ctx.addIssue({ code: 'custom', path: ['lost_reason'], message: 'lost_reason is required when the stage is "lost"' });
  if (o.stage !== 'lost' && o.lost_reason !== undefined) ctx.addIssue({ code: 'custom', path: ['lost_reason'], message: 'lost_reason is only for the stage "lost"' });
  if (o.lost_reason === 'other' && o.lost_reason_other === undefined) {
    ctx.addIssue({ code: 'custom', path: ['lost_reason_other'], message: 'lost_reason_other is required when lost_reason is "other"' });
  }
  if (o.lost_reason !== 'other' && o.lost_reason_other !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['lost_reason_other'], message: 'lost_reason_other is only for lost_reason "other"' });
  }
}

const lostSchema = [
  { if: { properties: { stage: { const: 'lost' } }, required: ['stage'] }, then: { required: ['lost_reason'] } },
  { if: { properties: { lost_reason: { const: 'other' } }, required: ['lost_reason'] }, then: { required: ['lost_reason_other'] } },
];

const CreateDeal = z
  .strictObject({
    store_id: storeId.describe('A store the workspace can see (one of its accounts); another ⇒ 404'),
    title: fields.title,
    stage: stageInput.stage.default('discovery').describe('Where the deal starts (default `discovery`)'),
    lost_reason: stageInput.lost_reason,
    lost_reason_other: stageInput.lost_reason_other,
    value: fields.value.optional(),
    currency: fields.currency.optional(),
    owner_email: fields.owner_email.optional(),
    expected_close_date: fields.expected_close_date.optional(),
  })
  .superRefine(lostRule)
  .meta({ allOf: lostSchema });

const UpdateDeal = patchBody(
  {
    title: fields.title.optional(),
    value: fields.value.optional().describe('null clears it'),
    currency: fields.currency.optional().describe('null clears it'),
    owner_email: fields.owner_email.optional().describe('null clears it'),
    expected_close_date: fields.expected_close_date.optional().describe('null clears it'),
  },
  'the stage moves with move_deal_stage',
);

const MoveStage = z.strictObject(stageInput).superRefine(lostRule).meta({ allOf: lostSchema });

const TRANSITIONS_TEXT = Object.entries(STAGE_TRANSITIONS)
  .map(([from, to]) => `${from} → ${to.join(', ')}`)
  .join('; ');

const noDeal = (id: string) => new ApiProblem('not-found', `No deal "${id}" in this workspace.`);

/** A change's result as the answer: the deal, or the problem that refused it. */
function answer(id: string, r: ChangeResult, ifMatch: number | undefined): { status: number; body: DealView } {
  switch (r.outcome) {
    case 'changed':
      return { status: 200, body: r.deal };
    case 'not-found':
      throw noDeal(id);
    case 'stale':
      throw new ApiProblem('conflict', `The deal is at version ${r.current}, not ${ifMatch}: read it again and apply the change to the current version.`, {}, { current_version: r.current });
    case 'forbidden':
      throw new ApiProblem('unprocessable', `A deal cannot move from ${r.from} to ${r.to}. From ${r.from} it can move to: ${STAGE_TRANSITIONS[r.from].join(', ')}.`, {}, { from: r.from, to: r.to });
  }
}


const common = { tag: 'Deals', planned: 'available' as const };
/** What a deal's paged lists (notes, history) declare: the deal's id, limit and cursor, 400 and 404. */
const dealList = pagedUnder(idParam('deal'));
const actorOf = (key: { id: string }) => ({ actor: `key:${key.id}`, apiKeyId: key.id });

export const dealRoutes = [
  defineRoute({
    ...common,
    operationId: 'list_deals',
    method: 'GET',
    path: '/deals',
    summary: 'List deals',
    description: "The workspace's deals in creation order (a walk sees each deal once), narrowed by `stage`, `store_id`, `owner_email` and `updated_since`, which combine. A cursor only continues the walk with the filters it was issued for (other filters ⇒ 400). Filters narrow the workspace's own deals and look nothing up: a `store_id` it has no deals of (another workspace's store included) gives an empty page, and one it no longer sees still finds its deals; an `owner_email` that is no email address ⇒ 400.",
    scope: 'read:accounts',
    kind: 'read',
    query: z.strictObject({
      ...pageQuery,
      stage: z.enum(DEAL_STAGES).optional().describe('Only deals in this stage'),
      store_id: storeId.optional().describe('Only deals of this store'),
      owner_email: Email.optional().describe('Only deals of this owner'),
      updated_since: z.iso.datetime({ offset: true }).optional().describe('Only deals changed at or after this time (ISO 8601 with a zone, e.g. 2026-03-01T00:00:00Z)'),
    }),
    response: page(Deal),
    problems: [400],
    async handler({ db, workspace, query, cursorSecret }) {
      const updatedSince = query.updated_since === undefined ? undefined : new Date(query.updated_since).toISOString();
      const filters = { stage: query.stage, storeId: query.store_id, ownerEmail: query.owner_email, updatedSince };
      const p = listPager(cursorSecret, workspace.id, filters, query.cursor);
      const rows = await listDeals(db.kysely, workspace.id, filters, p.after?.i, query.limit + 1);
      return { status: 200, body: p.page(rows, query.limit, (d) => ({ s: 0, i: d.id }), (d) => d) };
    },
  }),
  byIdRoute({
    ...common,
    operationId: 'get_deal',
    path: '/deals/{id}',
    summary: 'Read a deal',
    description: 'Another workspace\'s deal, or an unknown id ⇒ 404.',
    scope: 'read:accounts',
    what: 'deal',
    versioned: true,
    response: Deal,
    find: getDeal,
    missing: noDeal,
    toBody: (deal) => deal,
  }),
  defineRoute({
    ...common,
    operationId: 'create_deal',
    method: 'POST',
    path: '/deals',
    summary: 'Create a deal',
    description:
      'Creates a deal (version 1) for a store the workspace can see (another ⇒ 404), at `stage` (default `discovery`; `lost` needs `lost_reason`, and `lost_reason_other` when it is `other`, exactly like an Outcome). The starting stage is a learning label for the ranking, like an outcome of that action. Emits `deal.created`.',
    scope: 'write:deals',
    kind: 'write',
    body: CreateDeal,
    triggers: ['refresh'],
    response: Deal,
    versioned: true,
    location: '/deals/{id}',
    status: 201,
    problems: [400, 404, 409],
    async handler({ tx, workspace, key, body, now }) {
      if (!(await storeVisible(tx, workspace.id, body.store_id))) throw new ApiProblem('not-found', `No account "${body.store_id}" in this workspace.`);
      const deal = await createDeal(
        tx,
        workspace.id,
        body.store_id,
        { title: body.title, value: body.value ?? null, currency: body.currency ?? null, owner_email: body.owner_email ?? null, expected_close_date: body.expected_close_date ?? null },
        { stage: body.stage, lost_reason: body.lost_reason ?? null, lost_reason_other: body.lost_reason_other ?? null },
        actorOf(key),
        now,
      );
      return { status: 201, body: deal };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'update_deal',
    method: 'PATCH',
    path: '/deals/{id}',
    summary: 'Update a deal',
    description:
      'Changes title, value, currency, owner_email or expected_close_date (null clears a field; the stage moves with move_deal_stage); a body naming none ⇒ 400. With `If-Match: <version>` the change applies only to that version: a stale one ⇒ 409 (of two changes based on one version exactly one wins). Each changed field is one history entry. Emits `deal.updated` with the changes; a change that changes nothing emits nothing and keeps the version.',
    scope: 'write:deals',
    kind: 'write',
    params: idParam('deal'),
    headers: IF_MATCH,
    body: UpdateDeal,
    response: Deal,
    versioned: true,
    problems: [400, 404, 409],
    async handler({ tx, workspace, key, params, body, headers, now }) {
      const ifMatch = ifMatchVersion(headers);
      return answer(params.id, await updateDeal(tx, workspace.id, params.id, body, ifMatch, actorOf(key), now), ifMatch);
    },
  }),
  defineRoute({
    ...common,
    operationId: 'move_deal_stage',
    destructive: true,
    method: 'POST',
    path: '/deals/{id}/stage',
    summary: 'Move a deal to another stage',
    description: `Moves the deal along the transition table (${TRANSITIONS_TEXT}); anything else, including the stage it is in, ⇒ 422 naming from and to. \`lost\` needs \`lost_reason\` (and \`lost_reason_other\` when it is \`other\`) ⇒ 400 otherwise; leaving lost clears them. \`If-Match: <version>\`: a stale one ⇒ 409. The new stage is a learning label for the ranking, like an outcome of that action. Emits only \`deal.stage_changed\`.`,
    scope: 'write:deals',
    kind: 'write',
    params: idParam('deal'),
    headers: IF_MATCH,
    body: MoveStage,
    triggers: ['refresh'],
    response: Deal,
    versioned: true,
    problems: [400, 404, 409, 422],
    async handler({ tx, workspace, key, params, body, headers, now }) {
      const ifMatch = ifMatchVersion(headers);
      const move = { stage: body.stage, lost_reason: body.lost_reason ?? null, lost_reason_other: body.lost_reason_other ?? null };
      const moved = await moveDealStage(tx, workspace.id, params.id, move, ifMatch, actorOf(key), now);
      return answer(params.id, moved, ifMatch);
    },
  }),
  defineRoute({
    ...common,
    operationId: 'add_deal_note',
    method: 'POST',
    path: '/deals/{id}/notes',
    summary: 'Add a note to a deal',
    description: "Adds a note with the key as actor. The deal's version does not move; emits no event.",
    scope: 'write:deals',
    kind: 'write',
    params: idParam('deal'),
    body: z.strictObject({ body: z.string().trim().min(1).max(10_000) }),
    response: DealNote,
    status: 201,
    problems: [400, 404, 409],
    async handler({ tx, workspace, key, params, body, now }) {
      const note = await addDealNote(tx, workspace.id, params.id, body.body, `key:${key.id}`, now);
      if (!note) throw noDeal(params.id);
      return { status: 201, body: note };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_deal_notes',
    path: '/deals/{id}/notes',
    summary: "List a deal's notes",
    description: 'Oldest first, paged.',
    scope: 'read:accounts',
    ...dealList,
    response: page(DealNote),
    async handler({ db, workspace, params, query, cursorSecret }) {
      const p = listPager(cursorSecret, workspace.id, { notes: params.id }, query.cursor);
      const rows = await listDealNotes(db.kysely, workspace.id, params.id, p.after?.i, query.limit + 1);
      if (!rows) throw noDeal(params.id);
      return { status: 200, body: p.page(rows, query.limit, (n) => ({ s: 0, i: n.id }), (n) => n) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_deal_history',
    path: '/deals/{id}/history',
    summary: "List a deal's history",
    description: 'Every change in the order it happened: the creation, each stage move and each changed field, with from, to, actor and time. Paged.',
    scope: 'read:accounts',
    ...dealList,
    response: page(DealChange),
    async handler({ db, workspace, params, query, cursorSecret }) {
      const p = listPager(cursorSecret, workspace.id, { history: params.id }, query.cursor);
      const rows = await listDealHistory(db.kysely, workspace.id, params.id, p.after && { version: p.after.s, field: p.after.i }, query.limit + 1);
      if (!rows) throw noDeal(params.id);
      return { status: 200, body: p.page(rows, query.limit, (c) => ({ s: c.version, i: c.field }), (c) => c) };
    },
  }),
];
