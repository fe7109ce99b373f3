/** The ingested panel: new runs of the panel loaded into the workspace database while serving. */
import type { Aggregate } from '../compose/aggregate.js';

export const ingest: Aggregate = {
  tasks: {
    // After a load, re-rank and check the watches.
    ingest: ({ opts, trigger }) =>
      opts.ingest && {
        everyMs: opts.ingest.everyMs,
        run: opts.ingest.check(() => {
          trigger('refresh');
          trigger('watches');
        }),
      },
  },
};
