/** The wallet module: balance, ledger, prices, approvals, supervision and the monthly statement. */
import type { WorkspaceModule } from '../api/workspace-module.js';
import { walletRoutes } from './routes.js';
import { runStatements } from './statements.js';

export const walletModule: WorkspaceModule = {
  routes: walletRoutes,
  tasks: {
    // A closed month is billed once (the ledger's unique cause), so several servers may all run it.
    statements: ({ db, opts }) => ({
      everyMs: opts.statementsEveryMs ?? 300_000,
      atStart: true,
      run: async (stopping) => void (await runStatements(db, { now: opts.now, log: opts.log, stopping })),
    }),
  },
};

declare module '../api/tasks.js' {
  interface TaskNames {
    statements: true;
  }
  interface BackgroundOptions {
    /** How often closed months are looked for to bill on the monthly statement (default 5 min). */
    statementsEveryMs?: number;
  }
}
