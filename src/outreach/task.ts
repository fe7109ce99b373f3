/**
 * The worker's `outreach` task: every active enrollment whose next step is due gets that step
 * recorded once. With a sender configured (storelens outreach sender), the step is charged
 * (`outreach_step`), recorded `sent` with a supervision entry, and POSTed to the sender signed
 * exactly as webhook deliveries are (webhook-id, webhook-timestamp, webhook-signature); a sender
 * that does not accept it (one attempt) turns the step `failed` and refunds it. Without a
 * sender, or without funds, the step is recorded `held` and nothing is charged. Either way the
 * enrollment moves to its next step (or completes).
 */
import type { Kysely } from 'kysely';
import type { Database, Db } from '../compose/database.js';
import { NO_OUTREACH } from '../accounts/statuses.js';
import { lockRows } from '../db/locks.js';
import { cadenceSteps, DAY_MS, dueEnrollments, type EnrollmentRow, getCadence, getSender, recordStep, stopEnrollment } from './store.js';
import { recordSupervision } from '../wallet/store.js';
import { isApiProblem } from '../api/problems.js';
import { charge, refund } from '../wallet/billing.js';
import { send, signatureHeader } from '../webhooks/deliver.js';
import type { WebhookRuntime } from '../webhooks/runtime.js';
import { checkTarget } from '../webhooks/ssrf.js';

export interface OutreachWorkerOptions {
  now: () => Date;
  webhooks: WebhookRuntime;
  /** Extra trusted CA for https senders (tests). */
  ca?: string | Buffer;
  /** Clock of the signature timestamps (receivers check it against real time): default Date.now. */
  signingClock?: () => number;
  log?: (line: string) => void;
  /** Turns true when the process stops: no further step is started. */
  stopping?: () => boolean;
}

const BATCH = 100;

/** Records every due step; resolves to how many it recorded. */
export async function runOutreach(db: Db, opts: OutreachWorkerOptions): Promise<number> {
  let recorded = 0;
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
  const [account] = await lockRows(trx, 'accounts', { workspace_id: e.workspace_id, store_id: e.store_id });
  if (!account || !NO_OUTREACH.has(String(account.status))) return false;
  await stopEnrollment(trx, e.id, `the account's status is ${account.status}`, now);
  return true;
}

async function step(db: Db, e: EnrollmentRow, opts: OutreachWorkerOptions): Promise<boolean> {
  const now = opts.now();
  // A read first, so a step of an account that may be contacted opens no extra write; the step's
  // charge checks again under the lock, in its transaction.
  const account = await db.kysely.selectFrom('accounts').select('status').where('workspace_id', '=', e.workspace_id).where('store_id', '=', e.store_id).executeTakeFirst();
  if (account && NO_OUTREACH.has(String(account.status)) && (await db.write((trx) => endedByStatus(trx, e, now)))) return true;
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
  // Charge and record the step in one transaction (once: recordStep checks the step), then send.
  const recorded = await db
    .write(async (trx) => {
      if (await endedByStatus(trx, e, now)) return null;
      const c = await charge(trx, { workspaceId: e.workspace_id, unit: 'outreach_step', quantity: 1, operationId: 'outreach_step', idempotencyKey: `${e.id}:${e.next_step}`, actor: e.actor, now, noApproval: true });
      if (c.status !== 'debited') throw new Error('unreachable: a step never waits for an approval');
      const row = await recordStep(trx, e, { ...base, status: 'sent', reason: null, ledger_entry_id: c.entry.id }, next, now);
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
      return { row, entry: c.entry };
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
  const body = JSON.stringify({
    type: 'outreach.step',
    id: recorded.row.id,
    workspace_id: e.workspace_id,
    enrollment_id: e.id,
    store_id: e.store_id,
    contact_id: e.contact_id,
    cadence_id: e.cadence_id,
    step: { index: e.next_step, day: s.day, name: s.name },
    due_at: new Date(dueMs).toISOString(),
  });
  const timestamp = Math.floor((opts.signingClock ?? Date.now)() / 1000);
  const headers = { 'webhook-id': recorded.row.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader([opts.webhooks.box.open(sender.secret)], recorded.row.id, timestamp, body) };
  let error: string | null;
  let statusCode: number | null = null;
  try {
    const target = await checkTarget(sender.url, opts.webhooks.guard);
    const r = await send(target, body, headers, { ca: opts.ca });
    error = r.error;
    statusCode = r.statusCode;
  } catch (err) {
    error = (err as Error).message;
  }
  if (error !== null) {
    opts.log?.(`outreach step ${recorded.row.id} not accepted by the sender: ${error}`);
    const reason = `the sender did not accept it: ${error}`;
    await db.write(async (trx) => {
      const back = await refund(trx, recorded.entry.id, `outreach step ${recorded.row.id} failed: ${error}`, opts.now());
      await trx.updateTable('outreach_steps').set({ status: 'failed', reason, status_code: statusCode, ledger_entry_id: back.refund_of }).where('id', '=', recorded.row.id).execute();
    });
  } else {
    await db.write((trx) => trx.updateTable('outreach_steps').set({ status_code: statusCode }).where('id', '=', recorded.row.id).execute());
  }
  return true;
}

class Skip extends Error {}
