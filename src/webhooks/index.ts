/**
 * The webhooks module's public face (the outbox of events): another module imports the webhooks module only
 * from here (test/layering.test.ts); compose/ reads its module.ts.
 */
export { appendEvents } from './outbox.js';
