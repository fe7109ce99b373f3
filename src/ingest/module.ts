/** The ingested panel: new runs of the panel loaded into the workspace database while serving. */
import type { WorkspaceModule } from '../api/workspace-module.js';

export const ingestModule: WorkspaceModule = {
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

declare module '../api/tasks.js' {
  interface TaskNames {
    ingest: true;
  }
  interface BackgroundOptions {
    /**
     * Looks for new runs of the panel and loads them (ingest/watcher.ts ingestCheck), made with the
     * callback to call after a load: the worker then re-ranks and checks the watches.
     */
    ingest?: { check: (onLoaded: () => void) => (stopping?: () => boolean) => Promise<void>; everyMs: number };
  }
}
