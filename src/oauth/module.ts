/**
 * The oauth module: the assistant connector's clients, grants and tokens. Its tables are opened
 * with the others (compose/database.ts); it has no operation of its own, and one task: `oauth`
 * deletes the expired records (codes, tokens, grants) and the clients that registered themselves
 * and never completed a sign-in (store.ts: pruneOAuthRecords). Until then an expired record is
 * already dead: the adapter never answers it.
 */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { pruneOAuthRecords } from './store.js';

export const oauthModule: WorkspaceModule = {
  tasks: {
    // Deleting rows already dead, so several servers may all run it.
    oauth: ({ db, opts }) => ({
      everyMs: opts.sessionsEveryMs ?? 3_600_000,
      atStart: true,
      run: async () => {
        const pruned = await db.write((trx) => pruneOAuthRecords(trx, opts.now()));
        if (pruned.clients > 0) opts.log(`oauth: deleted ${pruned.clients} assistants registered over 24 hours ago that never completed a sign-in`);
      },
    }),
  },
};

declare module '../api/tasks.js' {
  interface TaskNames {
    oauth: true;
  }
}
