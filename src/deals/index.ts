/**
 * The deals module's public face (deals of stores): another module imports the deals module only
 * from here (test/layering.test.ts); compose/ reads its module.ts.
 */
export { Deal } from './events.js';
export { onDealStage, type StageListener } from './pipeline.js';
export { dealsOfStore } from './store.js';
