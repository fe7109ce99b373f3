/** The outreach aggregate: cadences, enrollments and the steps sent through the workspace's sender. */
import type { Aggregate } from '../compose/aggregate.js';
import { outreachRoutes } from './routes.js';
import { runOutreach } from './task.js';

export const outreach: Aggregate = {
  routes: outreachRoutes,
  tasks: {
    // Signs its sends as webhook deliveries are signed: it runs where webhooks are delivered.
    outreach: ({ db, opts }) => {
      const webhooks = opts.webhooks;
      if (!webhooks) return undefined;
      return {
        everyMs: opts.outreachEveryMs ?? 10_000,
        run: async (stopping) => void (await runOutreach(db, { now: opts.now, webhooks, ca: webhooks.ca, log: opts.log, stopping })),
      };
    },
  },
};
