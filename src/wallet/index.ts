/**
 * The wallet module's public face (charges, refunds, supervision and approvals): another module imports the wallet module only
 * from here (test/layering.test.ts); compose/ reads its module.ts.
 */
export { registerApprovalHandler, type ApprovalHandler } from './approvals.js';
export { charge, refund } from './billing.js';
export { openWallet, recordSupervision, withdrawApprovals } from './store.js';
