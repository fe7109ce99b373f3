/**
 * An owner's decision on a pending charge, in one transaction: approve ⇒ the wallet is debited
 * now (409 problems as for any charge) and the work waiting for it starts (a report is queued,
 * an enrollment starts its cadence); deny ⇒ nothing is debited and the work ends (the report
 * fails, the enrollment stops). The approval's row is locked first, so of two concurrent decisions
 * the second finds it decided: one decision, at most one debit.
 */
import type { Kysely } from 'kysely';
import { problemBody } from '../http/problems.js';
import { activateEnrollment, cadenceSteps, getCadence, getEnrollment, stopEnrollment } from '../outreach/store.js';
import { failReport, releaseReport } from '../reports/store.js';
import type { Database } from '../db/database.js';
import { type ApprovalRow, decideApproval, getApproval, type LedgerEntry, linkSupervision, lockApproval } from './store.js';
import { debitApproval } from './billing.js';

export class DecisionError extends Error {}

export interface Decision {
  approval: ApprovalRow;
  entry: LedgerEntry | null;
}

export async function decide(trx: Kysely<Database>, approvalId: string, verdict: 'approved' | 'denied', member: string, now: Date): Promise<Decision> {
  const a = await lockApproval(trx, approvalId);
  if (!a) throw new DecisionError(`no approval "${approvalId}"`);
  if (a.status !== 'pending') throw new DecisionError(`approval ${a.id} is already ${a.status}`);
  const by = `member:${member}`;
  let entry: LedgerEntry | null = null;
  if (verdict === 'approved') {
    entry = await debitApproval(trx, a, by, now);
    await release(trx, a, entry, now);
  } else {
    await refuse(trx, a, now);
  }
  if (!(await decideApproval(trx, a.id, verdict, by, entry?.id ?? null, now))) throw new DecisionError(`approval ${a.id} was decided meanwhile`);
  return { approval: (await getApproval(trx, a.id))!, entry };
}

async function release(trx: Kysely<Database>, a: ApprovalRow, entry: LedgerEntry, now: Date): Promise<void> {
  if (!a.resource_id) return;
  const link = { ledger_entry_id: entry.id, approval_id: a.id, allowed_by: `approval:${a.id}` };
  // Work that no longer waits (an enrollment stopped meanwhile) is not paid for: the decision fails and its debit is undone.
  const gone = () => new DecisionError(`approval ${a.id}: the ${a.resource_kind} ${a.resource_id} no longer awaits it; deny it instead`);
  if (a.resource_kind === 'growth_report') {
    if (!(await releaseReport(trx, a.resource_id, entry.id))) throw gone();
    await linkSupervision(trx, a.workspace_id, a.resource_id, 'report_requested', link);
  } else if (a.resource_kind === 'outreach_enrollment') {
    const e = await getEnrollment(trx, a.workspace_id, a.resource_id);
    const c = e && (await getCadence(trx, a.workspace_id, e.cadence_id));
    if (!e || !(await activateEnrollment(trx, e, c ? (cadenceSteps(c)[0]?.day ?? 0) : 0, entry.id, now))) throw gone();
    await linkSupervision(trx, a.workspace_id, a.resource_id, 'outreach_enrolled', link);
  }
}

async function refuse(trx: Kysely<Database>, a: ApprovalRow, now: Date): Promise<void> {
  if (!a.resource_id) return;
  if (a.resource_kind === 'growth_report') {
    await failReport(trx, { id: a.resource_id, status: 'awaiting_approval', claimed_until_ms: null }, problemBody('conflict', `The charge for this report was denied (approval ${a.id}); nothing was debited.`), now);
  } else if (a.resource_kind === 'outreach_enrollment') {
    await stopEnrollment(trx, a.resource_id, `approval ${a.id} denied`, now);
  }
}
