/** The reports aggregate: growth reports, generated in the background from the published statistics. */
import type { Aggregate } from '../compose/aggregate.js';
import { reportRoutes } from './routes.js';
import { runReports } from './task.js';

export const reports: Aggregate = {
  routes: reportRoutes,
  tasks: {
    reports: ({ db, opts }) => {
      if (!opts.reports) return undefined;
      const { statistics, everyMs = 2_000 } = opts.reports;
      return { everyMs, run: async (stopping) => void (await runReports(db, { now: opts.now, statistics, log: opts.log, stopping })) };
    },
  },
};
