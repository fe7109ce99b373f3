/**
 * An owner's decision on a pending charge, in one transaction: approve ⇒ the wallet is debited
 * now (409 problems as for any charge) and the work waiting for it starts (a report is queued,
 * an enrollment starts its cadence); deny ⇒ nothing is debited and the work ends (the report
 * fails, the enrollment stops). The approval's row is locked first, so of two concurrent decisions
 * the second finds it decided: one decision, at most one debit. What starts or ends is the
 * business of the module the resource belongs to (its ApprovalHandler, registered here).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { type ApprovalRow, decideApproval, getApproval, type LedgerEntry, linkSupervision, lockApproval, type NewSupervision } from './store.js';
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

/**
 * What a module whose work can wait for an approved charge does when the owner decides: it
 * registers one of these for its kind of resource (`resource_kind`) from its module.ts (reports:
 * `growth_report`, outreach: `outreach_enrollment`).
 */
export interface ApprovalHandler {
  /** The supervision entry the charge is recorded under (the kind the request wrote). */
  supervision: NewSupervision['kind'];
  /** Approved and debited: start the waiting work; false when it no longer waits (the decision then fails and its debit is undone). */
  release(trx: Kysely<Database>, a: PendingResource, entryId: string, now: Date): Promise<boolean>;
  /** Denied: end the waiting work. */
  refuse(trx: Kysely<Database>, a: PendingResource, now: Date): Promise<void>;
}

/** The approval's resource, as a handler gets it. */
export interface PendingResource {
  approvalId: string;
  workspaceId: string;
  resourceId: string;
}

const handlers = new Map<string, ApprovalHandler>();

/** Registers the handler of a kind of resource (once per kind). */
export function registerApprovalHandler(kind: string, h: ApprovalHandler): void {
  if (handlers.has(kind) && handlers.get(kind) !== h) throw new Error(`approval handler for ${kind} registered twice`);
  handlers.set(kind, h);
}

const pending = (a: ApprovalRow): { handler: ApprovalHandler; resource: PendingResource } | undefined => {
  if (!a.resource_kind || !a.resource_id) return undefined;
  const handler = handlers.get(a.resource_kind);
  // A decision must never pass over work waiting for it: the process lacks the module's registration.
  if (!handler) throw new Error(`no approval handler for ${a.resource_kind} (its module registers one from its module.ts; load compose/modules.ts)`);
  return { handler, resource: { approvalId: a.id, workspaceId: a.workspace_id, resourceId: a.resource_id } };
};

async function release(trx: Kysely<Database>, a: ApprovalRow, entry: LedgerEntry, now: Date): Promise<void> {
  const p = pending(a);
  if (!p) return;
  // Work that no longer waits (an enrollment stopped meanwhile) is not paid for: the decision fails and its debit is undone.
  if (!(await p.handler.release(trx, p.resource, entry.id, now))) throw new DecisionError(`approval ${a.id}: the ${a.resource_kind} ${a.resource_id} no longer awaits it; deny it instead`);
  await linkSupervision(trx, a.workspace_id, p.resource.resourceId, p.handler.supervision, { ledger_entry_id: entry.id, approval_id: a.id, allowed_by: `approval:${a.id}` });
}

async function refuse(trx: Kysely<Database>, a: ApprovalRow, now: Date): Promise<void> {
  const p = pending(a);
  if (p) await p.handler.refuse(trx, p.resource, now);
}
