/** The watches module: managed and self-directed watches, their health checks and briefs. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { evaluateWatches } from './evaluate.js';
import { watchRoutes } from './routes.js';

export const watchesModule: WorkspaceModule = {
  routes: watchRoutes,
  tasks: {
    // After the refresh (its in-market accounts are what the managed watch holds).
    watches: ({ db, opts, trigger }) => ({
      everyMs: opts.watchesEveryMs ?? 30_000,
      run: async () => {
        const s = await evaluateWatches(db, opts.now());
        if (s.checked) opts.log(`checked ${s.checked} watch${s.checked === 1 ? '' : 'es'}: ${s.changed} changed health`);
        trigger('deliver');
      },
    }),
  },
};

declare module '../api/tasks.js' {
  interface TaskNames {
    watches: true;
  }
  interface BackgroundOptions {
    /** How often the periodic watch check runs (default 30 s; it writes only when a watch's inputs moved). */
    watchesEveryMs?: number;
  }
}
