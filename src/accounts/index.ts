/**
 * The accounts module's public face (scored accounts, their statuses, outcomes and the ranking reads): another module imports the accounts module only
 * from here (test/layering.test.ts); compose/ reads its module.ts.
 */
export { rowsEvidence } from './evidence.js';
export { onOutcomeRecorded, type OutcomeListener } from './outcomes.js';
export { countInMarket, inMarketStoreIds, visibleStoreIds } from './ranking-reads.js';
export { NO_OUTREACH } from './statuses.js';
export { accountStatus, accountVisible, getAccount, lockAccount, lockAccountStatus } from './store.js';
