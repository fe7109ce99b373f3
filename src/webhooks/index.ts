/** The webhooks aggregate: endpoints, the outbox of events and their signed delivery. */
import type { Aggregate } from '../compose/aggregate.js';
import { createDeliverer } from './deliver.js';
import { webhookRoutes } from './routes.js';

export const webhooks: Aggregate = {
  routes: webhookRoutes,
  tasks: {
    // Fans events out and starts their sends, which run off the loop; stop() waits for them.
    deliver: ({ db, opts, trigger }) => {
      const w = opts.webhooks;
      if (!w) return undefined;
      const d = createDeliverer(db, { now: opts.now, box: w.box, guard: w.guard, ca: w.ca, log: opts.log, onSettled: () => trigger('deliver') });
      return { everyMs: w.everyMs ?? 1_000, run: async () => void (await d.pump()), stop: () => d.stop() };
    },
  },
};
