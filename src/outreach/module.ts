/** The outreach module: cadences, enrollments and the steps sent through the workspace's sender. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { onOutcomeRecorded } from '../accounts/index.js';
import { registerApprovalHandler } from '../wallet/index.js';
import { enrollmentApproval, stopOnClosedOutcome } from './rules.js';
import { outreachRoutes } from './routes.js';
import { runOutreach } from './task.js';

// An owner's decision on a charge this module's work waits for.
registerApprovalHandler('outreach_enrollment', enrollmentApproval);
// A won or lost outcome (recorded, or a deal's stage) ends the store's outreach.
onOutcomeRecorded(stopOnClosedOutcome);

export const outreachModule: WorkspaceModule = {
  routes: outreachRoutes,
  tasks: {
    // Signs its sends as webhook deliveries are signed: it runs where webhooks are delivered.
    outreach: ({ db, opts }) => {
      const outbound = opts.outbound;
      if (!outbound) return undefined;
      return {
        everyMs: opts.outreachEveryMs ?? 10_000,
        run: async (stopping) => void (await runOutreach(db, { now: opts.now, outbound, ca: outbound.ca, log: opts.log, stopping })),
      };
    },
  },
};

declare module '../api/tasks.js' {
  interface TaskNames {
    outreach: true;
  }
  interface BackgroundOptions {
    /** How often due outreach steps are looked for (default 10 s; needs `outbound`, whose signing and guard it uses). */
    outreachEveryMs?: number;
  }
}
