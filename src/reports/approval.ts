/** A growth report waiting for an owner's approval of its charge (wallet/approvals.ts): approved, it is queued; denied, it fails. */
import { problemBody } from '../http/problems.js';
import type { ApprovalHandler } from '../wallet/index.js';
import { failReport, releaseReport } from './store.js';

export const reportApproval: ApprovalHandler = {
  supervision: 'report_requested',
  release: (trx, r, entryId) => releaseReport(trx, r.resourceId, entryId),
  refuse: async (trx, r, now) => {
    await failReport(trx, { id: r.resourceId, status: 'awaiting_approval', claimed_until_ms: null }, problemBody('conflict', `The charge for this report was denied (approval ${r.approvalId}); nothing was debited.`), now);
  },
};
