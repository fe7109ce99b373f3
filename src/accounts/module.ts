/** The accounts module: scored accounts, their statuses, the profile and outcomes, and the re-ranking that learns from them. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { onDealStage } from '../deals/index.js';
import { answerStoreVisibility } from '../workspaces/visibility.js';
import { recordDealLabel } from './deal-labels.js';
import { outcomeRoutes } from './outcome-routes.js';
import { profileRoutes } from './profile-routes.js';
import { startRefresher } from './refresher.js';
import { accountRoutes } from './routes.js';
import { accountVisible } from './store.js';

// The deals and contacts modules ask whether a store is one of the workspace's accounts.
answerStoreVisibility(accountVisible);
// A deal's stage is a learning label, like a recorded outcome.
onDealStage(recordDealLabel);

export const accountsModule: WorkspaceModule = {
  routes: [...accountRoutes, ...profileRoutes, ...outcomeRoutes],
  tasks: {
    // Re-ranks each workspace whose inputs moved, off the request thread when it can be (refresher.ts).
    refresh: ({ db, opts, trigger }) => {
      const refresher = startRefresher(db, opts.metrics);
      return {
        everyMs: opts.everyMs ?? 5_000,
        // The first ranking now.
        atStart: true,
        run: async (stopping) => {
          for (const [ws, r] of await refresher.refreshAll(opts.now(), stopping)) {
            if (r.refreshed) opts.log(`re-ranked workspace ${ws}: ${r.accounts} accounts, ${r.in_market} in market (${r.explore} exploring), ${r.labels} labels, model v${r.model_version}`);
          }
          // A re-ranking writes store.* events: send them now, not on the next periodic turn.
          trigger('deliver');
        },
        stop: () => refresher.close(),
      };
    },
  },
};

declare module '../api/tasks.js' {
  interface TaskNames {
    refresh: true;
  }
  interface BackgroundOptions {
    /** How often the periodic re-ranking turn runs (default 5 s). */
    everyMs?: number;
  }
}
