/**
 * The ingest module's public face (the loaded panel (store months, features, signals)): another module imports the ingest module only
 * from here (test/layering.test.ts); compose/ reads its module.ts.
 */
export { latestStoreFeatures, pageStoreSignals, signalSummary, toFeatures, type StoreFeatures, type StoreSignal } from './store-history.js';
export { ingestedMonths, latestMonthValues, type SignalTuple, signalRowsBetween, storeRowsOfMonth, type StoreMonthTuple, visibleStoreMonths, visibleStoreSignals } from './stores.js';
