/** The watches aggregate: managed and self-directed watches, their health checks and briefs. */
import type { Aggregate } from '../compose/aggregate.js';
import { evaluateWatches } from './evaluate.js';
import { watchRoutes } from './routes.js';

export const watches: Aggregate = {
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
