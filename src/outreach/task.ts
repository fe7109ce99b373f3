/**
 * The worker's `outreach` task: every active enrollment whose next step is due gets that step
 * recorded once. With a sender configured (storelens outreach sender), the step is charged
 * (`outreach_step`) and recorded `sending`, claimed by this worker for SEND_CLAIM_MS, with a
 * supervision entry, in one transaction; then POSTed to the sender signed exactly as webhook
 * deliveries are (webhook-id = the step id, webhook-timestamp, webhook-signature), and marked
 * `sent` once the sender accepted it, or `failed` and refunded when it did not (one attempt).
 * A step left `sending` by a process that died before its answer was recorded is taken over by
 * the next run once its claim ran out (a conditional UPDATE: one worker gets it) and POSTed again
 * with the same webhook-id: at least once, so the sender dedupes on webhook-id. Without a sender,
 * or without funds, the step is recorded `held` and nothing is charged. Either way the
 * enrollment moves to its next step (or completes).
 */
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { accountStatus, lockAccountStatus, NO_OUTREACH } from '../accounts/index.js';
import {
  abandonedSteps,
  type CadenceStep,
  cadenceSteps,
  claimStep,
  DAY_MS,
  dueEnrollments,
  type EnrollmentRow,
  finishStep,
  getCadence,
  getEnrollment,
  getSender,
  recordStep,
  SEND_CLAIM_MS,
  type StepRow,
  stopEnrollment,
} from './store.js';
import { recordSupervision, charge, refund } from '../wallet/index.js';
import { isApiProblem } from '../api/problems.js';
import { send, signatureHeader } from '../outbound/send.js';
import type { OutboundRuntime } from '../outbound/runtime.js';
import { checkTarget } from '../outbound/ssrf.js';

export interface OutreachWorkerOptions {
  now: () => Date;
  outbound: OutboundRuntime;
  /** Extra trusted CA for https senders (tests). */
  ca?: string | Buffer;
  /** Clock of the signature timestamps (receivers check it against real time): default Date.now. */
  signingClock?: () => number;
  log?: (line: string) => void;
  /** Turns true when the process stops: no further step is started. */
  stopping?: () => boolean;
  /** The POST to the sender: default outbound/send.ts's (tests swap in one that never answers, as a process killed mid-send). */
  send?: typeof send;
}

const BATCH = 100;

/** Posts the steps left `sending` by a dead worker, then records every due step; resolves to how many it posted and recorded. */
export async function runOutreach(db: Db, opts: OutreachWorkerOptions): Promise<number> {
  const resumed = await resumeSending(db, opts);
  if (resumed.stopped) return resumed.posted;
  let recorded = resumed.posted;
  for (;;) {
    const due = await dueEnrollments(db.kysely, opts.now().getTime(), BATCH);
    if (due.length === 0) return recorded;
    let progressed = 0;
    for (const e of due) {
      if (opts.stopping?.()) return recorded + progressed;
      if (await step(db, e, opts)) progressed++;
    }
    recorded += progressed;
    if (progressed === 0 || due.length < BATCH) return recorded;
  }
}

/**
 * Ends the enrollment, unsent, when its account's status (read under the account's row lock,
 * so a decision under way is waited for) became one that blocks outreach; true when it did.
 */
async function endedByStatus(trx: Kysely<Database>, e: EnrollmentRow, now: Date): Promise<boolean> {
  const status = await lockAccountStatus(trx, e.workspace_id, e.store_id);
  if (status === undefined || !NO_OUTREACH.has(status)) return false;
  await stopEnrollment(trx, e.workspace_id, e.id, `the account's status is ${status}`, now);
  return true;
}

async function step(db: Db, e: EnrollmentRow, opts: OutreachWorkerOptions): Promise<boolean> {
  const now = opts.now();
  // A read first, so a step of an account that may be contacted opens no extra write; the step's
  // charge checks again under the lock, in its transaction.
  const status = await accountStatus(db.kysely, e.workspace_id, e.store_id);
  if (status !== undefined && NO_OUTREACH.has(status) && (await db.write((trx) => endedByStatus(trx, e, now)))) return true;
  const cadence = await getCadence(db.kysely, e.workspace_id, e.cadence_id);
  const steps = cadence ? cadenceSteps(cadence) : [];
  const s = steps[e.next_step];
  const start = e.start_ms ?? now.getTime();
  const following = steps[e.next_step + 1];
  const next = following ? { dueMs: start + following.day * DAY_MS } : null;
  const dueMs = e.next_due_ms ?? now.getTime();
  if (!s) {
    // The cadence is gone or shorter than the enrollment thinks: end it.
    await db.write((trx) => recordStep(trx, e, { step: e.next_step, day: 0, due_ms: dueMs, status: 'held', reason: 'the cadence has no such step', ledger_entry_id: null, status_code: null }, null, now));
    return true;
  }
  const sender = await getSender(db.kysely, e.workspace_id);
  const base = { step: e.next_step, day: s.day, due_ms: dueMs, status_code: null };
  if (!sender) {
    const r = await db.write((trx) => recordStep(trx, e, { ...base, status: 'held', reason: 'no outreach sender is configured', ledger_entry_id: null }, next, now));
    return r !== undefined;
  }
  // Charge and record the step `sending`, claimed by this worker, in one transaction (once:
  // recordStep checks the step); then post it, and only then mark it sent.
  const recorded = await db
    .write(async (trx) => {
      if (await endedByStatus(trx, e, now)) return null;
      const c = await charge(trx, { workspaceId: e.workspace_id, unit: 'outreach_step', quantity: 1, operationId: 'outreach_step', idempotencyKey: `${e.id}:${e.next_step}`, actor: e.actor, now, noApproval: true });
      if (c.status !== 'debited') throw new Error('unreachable: a step never waits for an approval');
      const row = await recordStep(trx, e, { ...base, status: 'sending', reason: null, ledger_entry_id: c.entry.id, claimed_until_ms: now.getTime() + SEND_CLAIM_MS }, next, now);
      if (!row) throw new Skip();
      await recordSupervision(
        trx,
        {
          workspace_id: e.workspace_id,
          kind: 'outreach_step_sent',
          actor: e.actor,
          api_key_id: e.api_key_id,
          subject: row.id,
          quantity: 1,
          detail: { enrollment_id: e.id, store_id: e.store_id, contact_id: e.contact_id, step: s.name, day: s.day },
          allowed_by: `enrollment:${e.id}`,
          ledger_entry_id: c.entry.id,
        },
        now,
      );
      return row;
    })
    .catch(async (err) => {
      if (err instanceof Skip) return undefined;
      if (isApiProblem(err) && (err.kind === 'insufficient-funds' || err.kind === 'spend-cap-reached')) {
        await db.write((trx) => recordStep(trx, e, { ...base, status: 'held', reason: err.detail, ledger_entry_id: null }, next, now));
        return null;
      }
      throw err;
    });
  if (recorded === undefined) return false;
  if (recorded === null) return true;
  await post(db, recorded, stepBody(e, recorded, s), sender, opts);
  return true;
}

/**
 * Posts again every step left `sending` by a process that died mid-send (its claim ran out),
 * each taken over by a conditional UPDATE so one worker posts it; resolves to how many it posted.
 * The sender sees such a step twice if the first post did reach it: same webhook-id, to dedupe on.
 */
async function resumeSending(db: Db, opts: OutreachWorkerOptions): Promise<{ posted: number; stopped: boolean }> {
  let posted = 0;
  for (;;) {
    const left = await abandonedSteps(db.kysely, opts.now().getTime(), BATCH);
    let taken = 0;
    for (const row of left) {
      if (opts.stopping?.()) return { posted, stopped: true };
      const claim = await db.write((trx) => claimStep(trx, row, opts.now().getTime()));
      if (!claim) continue;
      taken++;
      await resend(db, { ...row, ...claim }, opts);
    }
    posted += taken;
    if (taken === 0 || left.length < BATCH) return { posted, stopped: false };
  }
}

/** Posts a step taken over from a dead worker, built as it was first; failed and refunded when it can no longer be sent. */
async function resend(db: Db, row: StepRow, opts: OutreachWorkerOptions): Promise<void> {
  const e = await getEnrollment(db.kysely, row.workspace_id, row.enrollment_id);
  const cadence = e && (await getCadence(db.kysely, e.workspace_id, e.cadence_id));
  const s = cadence ? cadenceSteps(cadence)[row.step] : undefined;
  const status = e && (await accountStatus(db.kysely, e.workspace_id, e.store_id));
  const sender = await getSender(db.kysely, row.workspace_id);
  if (!e || !s) return fail(db, row, 'the cadence has no such step', null, opts);
  // Stopped meanwhile (stop_outreach, an outcome): no further step is sent, so neither is this one.
  if (e.status === 'stopped') return fail(db, row, `the enrollment was stopped${e.stop_reason ? ` (${e.stop_reason})` : ''}`, null, opts);
  if (status && NO_OUTREACH.has(status)) return fail(db, row, `the account's status is ${status}`, null, opts);
  if (!sender) return fail(db, row, 'no outreach sender is configured', null, opts);
  await post(db, row, stepBody(e, row, s), sender, opts);
}

/** The JSON the sender receives for a step (the same for every post of it). */
function stepBody(e: EnrollmentRow, row: Pick<StepRow, 'id' | 'step' | 'due_ms'>, s: CadenceStep): string {
  return JSON.stringify({
    type: 'outreach.step',
    id: row.id,
    workspace_id: e.workspace_id,
    enrollment_id: e.id,
    store_id: e.store_id,
    contact_id: e.contact_id,
    cadence_id: e.cadence_id,
    step: { index: row.step, day: s.day, name: s.name },
    due_at: new Date(row.due_ms).toISOString(),
  });
}

/**
 * Posts a `sending` step under this worker's claim (one attempt, signed with webhook-id = the
 * step id), then marks it `sent`, or `failed` and refunded when the sender did not accept it.
 */
async function post(db: Db, row: StepRow, body: string, sender: { url: string; secret: string }, opts: OutreachWorkerOptions): Promise<void> {
  let error: string | null;
  let statusCode: number | null = null;
  try {
    // Signing inside: a secret that cannot be opened fails (and refunds) this step, never the run.
    const timestamp = Math.floor((opts.signingClock ?? Date.now)() / 1000);
    const headers = { 'webhook-id': row.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader([opts.outbound.box.open(sender.secret)], row.id, timestamp, body) };
    const started = performance.now();
    const target = await checkTarget(sender.url, opts.outbound.guard);
    // One deadline for the attempt: the time resolving the host took comes off the send's.
    const r = await (opts.send ?? send)(target, body, headers, { ca: opts.ca, startedAt: started });
    error = r.error;
    statusCode = r.statusCode;
  } catch (err) {
    error = (err as Error).message;
  }
  if (error !== null) {
    opts.log?.(`outreach step ${row.id} not accepted by the sender: ${error}`);
    return fail(db, row, `the sender did not accept it: ${error}`, statusCode, opts);
  }
  const done = await db.write((trx) => finishStep(trx, row, { status: 'sent', reason: null, status_code: statusCode }));
  if (!done) opts.log?.(`outreach step ${row.id} was sent, but another worker had taken it over (it sends it again, same webhook-id)`);
}

/** Marks a `sending` step still under this worker's claim `failed` and refunds its charge, in one transaction. */
async function fail(db: Db, row: StepRow, reason: string, statusCode: number | null, opts: OutreachWorkerOptions): Promise<void> {
  await db.write(async (trx) => {
    if (!(await finishStep(trx, row, { status: 'failed', reason, status_code: statusCode }))) return;
    if (row.ledger_entry_id) await refund(trx, row.ledger_entry_id, `outreach step ${row.id} failed: ${reason}`, opts.now());
  });
}

class Skip extends Error {}
