/** Outreach: cadences, enrollments (a store and contact walking a cadence), their steps, and the workspace's sender. */
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { OutreachCadencesTable, OutreachEnrollmentsTable, OutreachStepsTable } from './tables.js';
import { beforeSeq, newId, nextSeq } from '../db/ids.js';
import { lockRows } from '../db/locks.js';
import type { Statement, When } from '../db/prepared.js';
import { withdrawApprovals } from '../wallet/index.js';

export type CadenceRow = Selectable<OutreachCadencesTable>;
export type EnrollmentRow = Selectable<OutreachEnrollmentsTable>;
export type StepRow = Selectable<OutreachStepsTable>;

export interface CadenceStep {
  /** Days after enrollment (0: at once). */
  day: number;
  name: string;
}

export const DAY_MS = 24 * 3600_000;

const normEnrollment = (r: EnrollmentRow): EnrollmentRow => ({
  ...r,
  seq: Number(r.seq),
  next_step: Number(r.next_step),
  start_ms: r.start_ms === null ? null : Number(r.start_ms),
  next_due_ms: r.next_due_ms === null ? null : Number(r.next_due_ms),
});
const normStep = (r: StepRow): StepRow => ({ ...r, step: Number(r.step), day: Number(r.day), due_ms: Number(r.due_ms), claimed_until_ms: r.claimed_until_ms === null ? null : Number(r.claimed_until_ms) });
export const cadenceSteps = (c: Pick<CadenceRow, 'steps'>): CadenceStep[] => JSON.parse(c.steps) as CadenceStep[];

export async function insertCadence(trx: Kysely<Database>, workspaceId: string, name: string, steps: readonly CadenceStep[], now: Date): Promise<CadenceRow> {
  const row: CadenceRow = { id: newId('cad'), workspace_id: workspaceId, seq: nextSeq(now), name, steps: JSON.stringify(steps), created_at: now.toISOString() };
  await trx.insertInto('outreach_cadences').values(row).execute();
  return row;
}

export async function getCadence(q: Kysely<Database>, workspaceId: string, id: string): Promise<CadenceRow | undefined> {
  const r = await q.selectFrom('outreach_cadences').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return r ? { ...(r as CadenceRow), seq: Number(r.seq) } : undefined;
}

/**
 * The cadence, locked for the rest of trx: enrolling checks the cadence's running enrollments
 * under this lock, so a concurrent enrollment in it (any process) waits and then sees this one's.
 */
export async function lockCadence(trx: Kysely<Database>, workspaceId: string, id: string): Promise<CadenceRow | undefined> {
  const [r] = await lockRows(trx, 'outreach_cadences', { workspace_id: workspaceId, id });
  return r ? { ...(r as CadenceRow), seq: Number(r.seq) } : undefined;
}

export async function pageCadences(q: Kysely<Database>, workspaceId: string, after: { seq: number; id: string } | undefined, limit: number): Promise<CadenceRow[]> {
  let query = q.selectFrom('outreach_cadences').selectAll().where('workspace_id', '=', workspaceId);
  if (after) query = query.where(beforeSeq(after));
  return (await query.orderBy('seq', 'desc').orderBy('id', 'desc').limit(limit).execute()).map((r) => ({ ...(r as CadenceRow), seq: Number(r.seq) }));
}

/** Statuses of an enrollment that has not ended (index outreach_enrollments_running: one per contact and cadence). */
export const RUNNING = ['active', 'awaiting_approval'] as const;

/** The contact's running enrollment in the cadence, if any. */
export async function runningEnrollment(q: Kysely<Database>, workspaceId: string, contactId: string, cadenceId: string): Promise<EnrollmentRow | undefined> {
  const r = await q
    .selectFrom('outreach_enrollments')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('contact_id', '=', contactId)
    .where('cadence_id', '=', cadenceId)
    .where('status', 'in', RUNNING)
    .executeTakeFirst();
  return r ? normEnrollment(r as EnrollmentRow) : undefined;
}

export async function insertEnrollment(trx: Kysely<Database>, e: Pick<EnrollmentRow, 'id' | 'workspace_id' | 'store_id' | 'contact_id' | 'cadence_id' | 'status' | 'actor' | 'api_key_id' | 'ledger_entry_id' | 'approval_id' | 'start_ms' | 'next_due_ms'>, now: Date): Promise<EnrollmentRow> {
  const row: EnrollmentRow = { ...e, seq: nextSeq(now), next_step: 0, stop_reason: null, created_at: now.toISOString(), stopped_at: null };
  await trx.insertInto('outreach_enrollments').values(row).execute();
  return row;
}

export async function getEnrollment(q: Kysely<Database>, workspaceId: string | undefined, id: string): Promise<EnrollmentRow | undefined> {
  let query = q.selectFrom('outreach_enrollments').selectAll().where('id', '=', id);
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  const r = await query.executeTakeFirst();
  return r ? normEnrollment(r as EnrollmentRow) : undefined;
}

export async function pageEnrollments(q: Kysely<Database>, workspaceId: string, f: { status?: string; storeId?: string }, after: { seq: number; id: string } | undefined, limit: number): Promise<EnrollmentRow[]> {
  let query = q.selectFrom('outreach_enrollments').selectAll().where('workspace_id', '=', workspaceId);
  if (f.status) query = query.where('status', '=', f.status as EnrollmentRow['status']);
  if (f.storeId) query = query.where('store_id', '=', f.storeId);
  if (after) query = query.where(beforeSeq(after));
  return (await query.orderBy('seq', 'desc').orderBy('id', 'desc').limit(limit).execute()).map((r) => normEnrollment(r as EnrollmentRow));
}

/**
 * An approved enrollment starts now: its first step is due at day 0 of the cadence from now.
 * Resolves to whether it did (false: it is no longer awaiting approval).
 */
export async function activateEnrollment(trx: Kysely<Database>, e: EnrollmentRow, firstDay: number, entryId: string, now: Date): Promise<boolean> {
  const nowMs = now.getTime();
  const r = await trx
    .updateTable('outreach_enrollments')
    .set({ status: 'active', ledger_entry_id: entryId, start_ms: nowMs, next_due_ms: nowMs + firstDay * DAY_MS })
    .where('id', '=', e.id)
    .where('status', '=', 'awaiting_approval')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Which of a workspace's enrollments a stop ends: one (by id), a store's, or all of them. */
type Which = { id: string } | { storeId: string } | Record<string, never>;

/**
 * The statements that stop the running enrollments of a workspace `which` picks, each doing its
 * work only `when` holds. First the pending approval of each one awaiting it is withdrawn (in the
 * wallet), so no owner is asked to decide on an enrollment that ended: nothing was debited for it.
 * Then the enrollments stop. The withdrawal comes first, for it picks the enrollments still
 * awaiting approval; sent as one statement (PostgreSQL), both see the database as it was before.
 */
function stopStatements(q: Kysely<Database>, workspaceId: string, which: Which, reason: string, now: Date, when: When) {
  const picked = (eb: ExpressionBuilder<Database, 'outreach_enrollments'>) =>
    eb.and([eb('workspace_id', '=', workspaceId), ...('id' in which ? [eb('id', '=', which.id)] : 'storeId' in which ? [eb('store_id', '=', which.storeId)] : [])]);
  const waiting = q.selectFrom('outreach_enrollments').select('id').where(picked).where('status', '=', 'awaiting_approval');
  return [
    withdrawApprovals(q, { workspaceId, kind: 'outreach_enrollment', resourceIds: waiting, by: reason, now, when }),
    q
      .updateTable('outreach_enrollments')
      .set({ status: 'stopped', stop_reason: reason, stopped_at: now.toISOString(), next_due_ms: null })
      .where(picked)
      .where('status', 'in', RUNNING)
      .$if(when !== undefined, (qb) => qb.where(when!)),
  ] as const;
}

/** Stops an enrollment that has not ended (its pending approval withdrawn); resolves to whether it did. */
export async function stopEnrollment(trx: Kysely<Database>, workspaceId: string, id: string, reason: string, now: Date): Promise<boolean> {
  const [withdraw, stop] = stopStatements(trx, workspaceId, { id }, reason, now, undefined);
  await withdraw.execute();
  const r = await stop.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Stops an enrollment whose approval an owner is denying (wallet/approvals.ts, under that
 * approval's lock): the decision records the approval denied.
 */
export async function stopDenied(trx: Kysely<Database>, id: string, reason: string, now: Date): Promise<void> {
  await trx
    .updateTable('outreach_enrollments')
    .set({ status: 'stopped', stop_reason: reason, stopped_at: now.toISOString(), next_due_ms: null })
    .where('id', '=', id)
    .where('status', '=', 'awaiting_approval')
    .execute();
}

/**
 * Stops every running enrollment of a workspace (its pilot access withdrawn: outreach is a pilot
 * operation, and its steps would go on being sent and charged while the workspace could no longer
 * see or stop them), withdrawing the pending approvals of those awaiting one; resolves to how many
 * it stopped. A step a worker is charging waits for this row's lock and then finds its enrollment
 * stopped (recordStep), so nothing is charged after it.
 */
export async function stopWorkspaceEnrollments(trx: Kysely<Database>, workspaceId: string, reason: string, now: Date): Promise<number> {
  const [withdraw, stop] = stopStatements(trx, workspaceId, {}, reason, now, undefined);
  await withdraw.execute();
  const r = await stop.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Stops every running enrollment of a store (a won or lost outcome or deal) `when` that holds,
 * withdrawing the pending approvals of those awaiting one: the statements a recorded outcome's
 * listener answers.
 */
export function stopStoreEnrollments(q: Kysely<Database>, workspaceId: string, storeId: string, reason: string, now: Date, when: When): Statement[] {
  return [...stopStatements(q, workspaceId, { storeId }, reason, now, when)];
}

/** Active enrollments with a step due at nowMs, oldest due first. */
export async function dueEnrollments(q: Kysely<Database>, nowMs: number, limit: number): Promise<EnrollmentRow[]> {
  const rows = await q.selectFrom('outreach_enrollments').selectAll().where('status', '=', 'active').where('next_due_ms', '<=', nowMs).orderBy('next_due_ms').limit(limit).execute();
  return rows.map((r) => normEnrollment(r as EnrollmentRow));
}

/**
 * Records step `step` of an enrollment and moves it to its next step (or completes it), only
 * if the enrollment is still active at that step: a step is recorded once.
 */
export async function recordStep(
  trx: Kysely<Database>,
  e: EnrollmentRow,
  s: Pick<StepRow, 'step' | 'day' | 'due_ms' | 'status' | 'reason' | 'ledger_entry_id' | 'status_code'> & { claimed_until_ms?: number },
  next: { dueMs: number } | null,
  now: Date,
): Promise<StepRow | undefined> {
  const moved = await trx
    .updateTable('outreach_enrollments')
    .set(next ? { next_step: s.step + 1, next_due_ms: next.dueMs } : { next_step: s.step + 1, next_due_ms: null, status: 'completed' })
    .where('id', '=', e.id)
    .where('status', '=', 'active')
    .where('next_step', '=', s.step)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return undefined;
  const row: StepRow = { ...s, claimed_until_ms: s.claimed_until_ms ?? null, id: newId('stp'), enrollment_id: e.id, workspace_id: e.workspace_id, created_at: now.toISOString() };
  await trx.insertInto('outreach_steps').values(row).execute();
  return row;
}

/**
 * How long a worker owns a `sending` step it is posting: longer than a POST (15 s timeout) and
 * its record. A step still `sending` after it was left by a process that died mid-send.
 */
export const SEND_CLAIM_MS = 60_000;

/** A `sending` step as a worker claimed it: its claimed_until_ms is the worker's token. */
export type StepClaim = Pick<StepRow, 'id' | 'claimed_until_ms'>;

/**
 * Steps left `sending` whose claim ran out at nowMs (their worker died mid-send), oldest claim
 * first. The status is a literal, not a parameter, so both databases read the partial index
 * outreach_steps_sending (every worker asks this on every run).
 */
export async function abandonedSteps(q: Kysely<Database>, nowMs: number, limit: number): Promise<StepRow[]> {
  const rows = await q.selectFrom('outreach_steps').selectAll().where('status', '=', sql.lit('sending')).where('claimed_until_ms', '<=', nowMs).orderBy('claimed_until_ms').orderBy('id').limit(limit).execute();
  return rows.map((r) => normStep(r as StepRow));
}

const stillClaimed = (c: StepClaim) => (eb: ExpressionBuilder<Database, 'outreach_steps'>) =>
  eb.and([eb('id', '=', c.id), eb('status', '=', 'sending'), c.claimed_until_ms === null ? eb('claimed_until_ms', 'is', null) : eb('claimed_until_ms', '=', c.claimed_until_ms)]);

/**
 * Takes over a `sending` step still standing as `c` (its claim ran out) until nowMs +
 * SEND_CLAIM_MS: a conditional UPDATE, so of two workers (any process, either database: on
 * PostgreSQL the second waits for the first's row and re-checks) one gets it. Resolves to the
 * new claim, or undefined when another worker took it or it was finished meanwhile.
 */
export async function claimStep(trx: Kysely<Database>, c: StepClaim, nowMs: number): Promise<StepClaim | undefined> {
  const until = nowMs + SEND_CLAIM_MS;
  const r = await trx.updateTable('outreach_steps').set({ claimed_until_ms: until }).where(stillClaimed(c)).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? { id: c.id, claimed_until_ms: until } : undefined;
}

/**
 * Ends a `sending` step still under claim `c` as `sent` or `failed` (claim released); resolves to
 * whether it did. A worker whose claim another took over changes nothing (and refunds nothing).
 */
export async function finishStep(trx: Kysely<Database>, c: StepClaim, outcome: { status: 'sent' | 'failed'; reason: string | null; status_code: number | null }): Promise<boolean> {
  const r = await trx.updateTable('outreach_steps').set({ ...outcome, claimed_until_ms: null }).where(stillClaimed(c)).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function stepsOf(q: Kysely<Database>, enrollmentIds: readonly string[]): Promise<Map<string, StepRow[]>> {
  const out = new Map<string, StepRow[]>(enrollmentIds.map((id) => [id, []]));
  if (enrollmentIds.length === 0) return out;
  const rows = await q.selectFrom('outreach_steps').selectAll().where('enrollment_id', 'in', enrollmentIds).orderBy('enrollment_id').orderBy('step').execute();
  for (const r of rows) out.get(r.enrollment_id)!.push(normStep(r as StepRow));
  return out;
}

export async function getSender(q: Kysely<Database>, workspaceId: string): Promise<Selectable<Database['outreach_senders']> | undefined> {
  return q.selectFrom('outreach_senders').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
}

export async function setSender(trx: Kysely<Database>, workspaceId: string, url: string, sealedSecret: string, now: Date): Promise<void> {
  await trx
    .insertInto('outreach_senders')
    .values({ workspace_id: workspaceId, url, secret: sealedSecret, created_at: now.toISOString() })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ url, secret: sealedSecret, created_at: now.toISOString() }))
    .execute();
}

export async function clearSender(trx: Kysely<Database>, workspaceId: string): Promise<void> {
  await trx.deleteFrom('outreach_senders').where('workspace_id', '=', workspaceId).execute();
}
