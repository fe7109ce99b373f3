/** What other modules' changes do to outreach, registered from outreach/module.ts. */
import type { OutcomeListener } from '../accounts/index.js';
import type { ApprovalHandler } from '../wallet/index.js';
import { activateEnrollment, cadenceSteps, getCadence, getEnrollment, stopDenied, stopStoreEnrollments } from './store.js';

/** An enrollment waiting for an owner's approval of its charge (wallet/approvals.ts): approved, it starts its cadence; denied, it stops. */
export const enrollmentApproval: ApprovalHandler = {
  supervision: 'outreach_enrolled',
  release: async (trx, r, entryId, now) => {
    const e = await getEnrollment(trx, r.workspaceId, r.resourceId);
    const c = e && (await getCadence(trx, r.workspaceId, e.cadence_id));
    return !!e && (await activateEnrollment(trx, e, c ? (cadenceSteps(c)[0]?.day ?? 0) : 0, entryId, now));
  },
  refuse: async (trx, r, now) => {
    await stopDenied(trx, r.resourceId, `approval ${r.approvalId} denied`, now);
  },
};

/** A won or lost outcome of a store (recorded, or a deal's stage) ends the store's outreach. */
export const stopOnClosedOutcome: OutcomeListener = (q, o, now, when) =>
  o.action === 'won' || o.action === 'lost' ? stopStoreEnrollments(q, o.workspaceId, o.storeId, o.cause, now, when) : [];
