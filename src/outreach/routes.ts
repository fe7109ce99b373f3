/**
 * Outreach (write:outreach; pilot): cadences (named steps with delays in days), enrollments of
 * a store's contact in a cadence, and stopping them. Enrolling is charged on acceptance (price
 * `outreach_enrollment`); the worker sends each step when it is due through the workspace's
 * sender (a signed webhook), charging `outreach_step` per step (`sending`, then `sent` once the
 * sender accepted it), or records it `held` when no sender is configured. A won or lost outcome or deal stops the store's enrollments.
 */
import { z } from 'zod';
import { lockAccount, NO_OUTREACH } from '../accounts/index.js';
import { getContact } from '../contacts/index.js';
import { holdPilotAccess } from '../workspaces/store.js';
import { newId } from '../db/ids.js';
import {
  cadenceSteps,
  type CadenceRow,
  DAY_MS,
  type EnrollmentRow,
  getEnrollment,
  insertCadence,
  insertEnrollment,
  lockCadence,
  pageCadences,
  pageEnrollments,
  runningEnrollment,
  type StepRow,
  stepsOf,
  stopEnrollment,
} from './store.js';
import { recordSupervision, charge } from '../wallet/index.js';
import { ApiProblem } from '../api/problems.js';
import { byIdRoute, defineRoute } from '../api/route-def.js';
import { idParam, page, pageQuery, storeId } from '../api/schemas.js';
import { seqListRoute, seqPager } from '../api/seq-page.js';

export { NO_OUTREACH } from '../accounts/index.js';

const CadenceStep = z.strictObject({
  day: z.int().min(0).max(365).describe('Days after enrollment the step is due (0: at once)'),
  name: z.string().min(1).max(200).describe('What the step is, e.g. "intro email"; sent to your sender with the step'),
});

const Cadence = z.object({
  object: z.literal('outreach_cadence'),
  id: z.string(),
  name: z.string(),
  steps: z.array(z.object({ day: z.int(), name: z.string() })),
  created_at: z.string(),
});

const Step = z.object({
  step: z.int().describe('0-based index into the cadence'),
  day: z.int(),
  due_at: z.string(),
  status: z
    .enum(['sending', 'sent', 'held', 'failed'])
    .describe(
      '`sending` (charged, on its way to your sender: posted again with the same webhook-id if the process sending it stopped); `sent` (your sender accepted it); `held` (no sender configured, or no funds); `failed` (the sender did not accept it; refunded)',
    ),
  reason: z.string().nullable(),
  ledger_entry_id: z.string().nullable(),
  recorded_at: z.string(),
});

const Enrollment = z.object({
  object: z.literal('outreach_enrollment'),
  id: z.string(),
  store_id: z.string(),
  contact_id: z.string(),
  cadence_id: z.string(),
  status: z.enum(['awaiting_approval', 'active', 'stopped', 'completed']),
  next_step: z.int().nullable().describe('Index of the next step; null once the enrollment ended'),
  next_due_at: z.string().nullable(),
  ledger_entry_id: z.string().nullable().describe('The debit for the enrollment'),
  approval_id: z.string().nullable(),
  stop_reason: z.string().nullable(),
  steps: z.array(Step).describe('Steps recorded so far, in order'),
  created_at: z.string(),
  stopped_at: z.string().nullable(),
});

const toCadence = (c: CadenceRow): z.output<typeof Cadence> => ({ object: 'outreach_cadence', id: c.id, name: c.name, steps: cadenceSteps(c), created_at: c.created_at });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const toEnrollment = (e: EnrollmentRow, steps: readonly StepRow[]): z.output<typeof Enrollment> => ({
  object: 'outreach_enrollment',
  id: e.id,
  store_id: e.store_id,
  contact_id: e.contact_id,
  cadence_id: e.cadence_id,
  status: e.status,
  next_step: e.status === 'active' || e.status === 'awaiting_approval' ? e.next_step : null,
  next_due_at: iso(e.next_due_ms),
  ledger_entry_id: e.ledger_entry_id,
  approval_id: e.approval_id,
  stop_reason: e.stop_reason,
  steps: steps.map((s) => ({ step: s.step, day: s.day, due_at: new Date(s.due_ms).toISOString(), status: s.status, reason: s.reason, ledger_entry_id: s.ledger_entry_id, recorded_at: s.created_at })),
  created_at: e.created_at,
  stopped_at: e.stopped_at,
});

const common = { tag: 'Outreach', scope: 'write:outreach', planned: 'pilot' } as const;
const enrollmentNotFound = (id: string) => new ApiProblem('not-found', `No outreach enrollment "${id}" in this workspace.`);

export const outreachRoutes = [
  seqListRoute({
    ...common,
    operationId: 'list_outreach_cadences',
    path: '/outreach/cadences',
    summary: 'List outreach cadences, newest first',
    item: Cadence,
    list: 'outreach_cadences',
    rows: pageCadences,
    toItem: toCadence,
  }),
  defineRoute({
    ...common,
    operationId: 'create_outreach_cadence',
    method: 'POST',
    path: '/outreach/cadences',
    summary: 'Create an outreach cadence (named steps with delays in days)',
    description: 'Steps are in order and their days never decrease, e.g. day 0, 3 and 7.',
    kind: 'write',
    body: z.strictObject({
      name: z.string().min(1).max(200),
      steps: z
        .array(CadenceStep)
        .min(1)
        .max(20)
        .refine((s) => s.every((x, i) => i === 0 || x.day >= s[i - 1]!.day), 'days must not decrease from one step to the next'),
    }),
    response: Cadence,
    status: 201,
    problems: [400, 409],
    async handler({ tx, workspace, body, now }) {
      return { status: 201, body: toCadence(await insertCadence(tx, workspace.id, body.name, body.steps, now)) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'enroll_outreach',
    method: 'POST',
    path: '/outreach/enrollments',
    summary: "Enroll a store's contact in an outreach cadence",
    description:
      "Charged on acceptance (price `outreach_enrollment`): 201 with the enrollment `active`, its first step due at day 0 of the cadence; 202 `awaiting_approval` when the charge is at or above the auto-approve amount. An account with status `do_not_contact` or `disqualified` ⇒ 422; a contact of another store ⇒ 422; an unknown store, contact or cadence ⇒ 404; the store's contact already active in this cadence ⇒ 409; wallet problems ⇒ 409 insufficient-funds or spend-cap-reached.",
    kind: 'write',
    body: z.strictObject({ store_id: storeId, contact_id: z.string().min(1).max(200), cadence_id: z.string().min(1).max(200) }),
    triggers: ['outreach'],
    response: Enrollment,
    location: '/outreach/enrollments/{id}',
    status: 201,
    otherStatuses: { 202: 'Accepted, awaiting an owner\'s approval of the charge (status `awaiting_approval`)' },
    problems: [400, 404, 409, 422],
    async handler({ tx, workspace, key, body, headers, now }) {
      // Locked: a status change to do_not_contact under way is waited for, then seen.
      const account = await lockAccount(tx, workspace.id, body.store_id);
      if (!account) throw new ApiProblem('not-found', `No account "${body.store_id}" in this workspace.`);
      // Admitted with pilot access, which may have been withdrawn since (it stops every running
      // enrollment in its transaction): read again, held until the commit, after the account's
      // lock (a status decision takes the account's, then the workspace's).
      if (workspace.pilot_access === 1 && !(await holdPilotAccess(tx, workspace.id))) {
        throw new ApiProblem('pilot-required', 'enroll_outreach is available only to workspaces with approved pilot access, which this workspace no longer has.');
      }
      const contact = await getContact(tx, workspace.id, body.contact_id);
      if (!contact) throw new ApiProblem('not-found', `No contact "${body.contact_id}" in this workspace.`);
      // The cadence's row lock orders concurrent enrollments in it: the running-enrollment check
      // below sees every one committed before (index outreach_enrollments_running backs it).
      const cadence = await lockCadence(tx, workspace.id, body.cadence_id);
      if (!cadence) throw new ApiProblem('not-found', `No outreach cadence "${body.cadence_id}" in this workspace.`);
      if (NO_OUTREACH.has(account.status)) throw new ApiProblem('unprocessable', `The account's status is ${account.status}: it must not be contacted.`);
      if (contact.store_id !== body.store_id) throw new ApiProblem('unprocessable', `Contact "${contact.id}" belongs to store "${contact.store_id}", not "${body.store_id}".`);
      const running = await runningEnrollment(tx, workspace.id, contact.id, cadence.id);
      if (running) throw new ApiProblem('conflict', `This contact is already enrolled in this cadence (enrollment ${running.id}, ${running.status}); stop that enrollment first.`);
      const id = newId('enr');
      const actor = `key:${key.id}`;
      const c = await charge(tx, { workspaceId: workspace.id, unit: 'outreach_enrollment', quantity: 1, operationId: 'enroll_outreach', idempotencyKey: String(headers['idempotency-key']), actor, now, resource: { kind: 'outreach_enrollment', id } });
      const debited = c.status === 'debited';
      const nowMs = now.getTime();
      const e = await insertEnrollment(
        tx,
        {
          id,
          workspace_id: workspace.id,
          store_id: body.store_id,
          contact_id: contact.id,
          cadence_id: cadence.id,
          status: debited ? 'active' : 'awaiting_approval',
          actor,
          api_key_id: key.id,
          ledger_entry_id: debited ? c.entry.id : null,
          approval_id: debited ? null : c.approval.id,
          start_ms: debited ? nowMs : null,
          next_due_ms: debited ? nowMs + cadenceSteps(cadence)[0]!.day * DAY_MS : null,
        },
        now,
      );
      await recordSupervision(
        tx,
        {
          workspace_id: workspace.id,
          kind: 'outreach_enrolled',
          actor,
          api_key_id: key.id,
          subject: id,
          quantity: 1,
          detail: { store_id: body.store_id, contact_id: contact.id, cadence_id: cadence.id },
          allowed_by: debited ? c.allowedBy : `pending:${c.approval.id}`,
          approval_id: debited ? null : c.approval.id,
          ledger_entry_id: debited ? c.entry.id : null,
        },
        now,
      );
      return { status: debited ? 201 : 202, body: toEnrollment(e, []) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'list_outreach_enrollments',
    method: 'GET',
    path: '/outreach/enrollments',
    summary: 'List outreach enrollments, newest first',
    kind: 'read',
    query: z.strictObject({
      ...pageQuery,
      status: z.enum(['awaiting_approval', 'active', 'stopped', 'completed']).optional(),
      store_id: storeId.optional(),
    }),
    response: page(Enrollment),
    problems: [400],
    async handler({ db, workspace, query, cursorSecret }) {
      const f = { status: query.status, storeId: query.store_id };
      const p = seqPager(cursorSecret, workspace.id, 'outreach_enrollments', f, query.cursor);
      const rows = await pageEnrollments(db.kysely, workspace.id, f, p.after, query.limit + 1);
      const steps = await stepsOf(db.kysely, rows.slice(0, query.limit).map((r) => r.id));
      return { status: 200, body: p.page(rows, query.limit, (r) => toEnrollment(r, steps.get(r.id) ?? [])) };
    },
  }),
  byIdRoute({
    ...common,
    operationId: 'get_outreach_enrollment',
    path: '/outreach/enrollments/{id}',
    summary: 'Read an outreach enrollment and its steps',
    what: 'enrollment',
    response: Enrollment,
    find: getEnrollment,
    missing: enrollmentNotFound,
    toBody: async (e, q) => toEnrollment(e, (await stepsOf(q, [e.id])).get(e.id)!),
  }),
  defineRoute({
    ...common,
    operationId: 'stop_outreach',
    destructive: true,
    method: 'POST',
    path: '/outreach/enrollments/{id}/stop',
    summary: 'Stop an outreach enrollment',
    description: 'No further step is sent. An enrollment awaiting approval stops too: its pending approval is withdrawn (nothing was debited for it). Stopping one that already ended ⇒ 409.',
    kind: 'write',
    params: idParam('enrollment'),
    response: Enrollment,
    problems: [400, 404, 409],
    async handler({ tx, workspace, params, key, now }) {
      const e = await getEnrollment(tx, workspace.id, params.id);
      if (!e) throw enrollmentNotFound(params.id);
      // A conditional UPDATE: of two concurrent stops the second finds the enrollment ended.
      const stopped = await stopEnrollment(tx, workspace.id, e.id, `stopped by key:${key.id}`, now);
      const after = (await getEnrollment(tx, workspace.id, e.id))!;
      if (!stopped) throw new ApiProblem('conflict', `The enrollment is already ${after.status}.`);
      return { status: 200, body: toEnrollment(after, (await stepsOf(tx, [e.id])).get(e.id)!) };
    },
  }),
];
