/**
 * The members module: the people of a workspace, their roles, invitations, passwords and sign-in
 * throttle. Its tables are opened with the others (compose/database.ts); it has no operation of
 * its own, and one task: `sessions` deletes the sessions and invites no sign-in can use any more.
 */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { pruneSignIns } from './store.js';

export const membersModule: WorkspaceModule = {
  tasks: {
    // Deleting rows already dead, so several servers may all run it.
    sessions: ({ db, opts }) => ({
      everyMs: opts.sessionsEveryMs ?? 3_600_000,
      atStart: true,
      run: async () => {
        const pruned = await db.write((trx) => pruneSignIns(trx, opts.now()));
        if (pruned.sessions + pruned.invites > 0) opts.log(`sessions: deleted ${pruned.sessions} ended sessions and ${pruned.invites} used or expired invites`);
      },
    }),
  },
};

declare module '../api/tasks.js' {
  interface TaskNames {
    sessions: true;
  }
  interface BackgroundOptions {
    /** How often ended sessions, used or expired invites and expired OAuth records are deleted (default hourly). */
    sessionsEveryMs?: number;
  }
}
