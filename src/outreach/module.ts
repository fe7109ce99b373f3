/** The outreach module: cadences, enrollments and the steps sent through the workspace's sender. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { outreachRoutes } from './routes.js';
import { runOutreach } from './task.js';
import { outreachMigrations } from './tables.js';

export const outreachModule: WorkspaceModule = {
  migrations: outreachMigrations,
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

declare module '../api/tasks.js' {
  interface TaskNames {
    outreach: true;
  }
  interface BackgroundOptions {
    /** How often due outreach steps are looked for (default 10 s; needs `webhooks`, whose signing and guard it uses). */
    outreachEveryMs?: number;
  }
}
