/** The reports module: growth reports, generated in the background from the published statistics. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { registerApprovalHandler } from '../wallet/index.js';
import { reportApproval } from './approval.js';
import type { StatisticsSource } from './statistics.js';
import { reportRoutes } from './routes.js';
import { runReports } from './task.js';

// An owner's decision on a charge this module's work waits for.
registerApprovalHandler('growth_report', reportApproval);

export const reportsModule: WorkspaceModule = {
  routes: reportRoutes,
  tasks: {
    reports: ({ db, opts }) => {
      if (!opts.reports) return undefined;
      const { statistics, everyMs = 2_000 } = opts.reports;
      return { everyMs, run: async (stopping) => void (await runReports(db, { now: opts.now, statistics, log: opts.log, stopping })) };
    },
  },
};

declare module '../api/tasks.js' {
  interface TaskNames {
    reports: true;
  }
  interface BackgroundOptions {
    /** Generate growth reports from these published statistics (the `reports` task). */
    reports?: { statistics: StatisticsSource; everyMs?: number };
  }
}
