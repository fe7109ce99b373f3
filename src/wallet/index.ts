/** The wallet aggregate: balance, ledger, prices, approvals, supervision and the monthly statement. */
import type { Aggregate } from '../compose/aggregate.js';
import { walletRoutes } from './routes.js';
import { runStatements } from './statements.js';

export const wallet: Aggregate = {
  routes: walletRoutes,
  tasks: {
    // A closed month is billed once (the ledger's unique cause), so several servers may all run it.
    statements: ({ db, opts }) => ({
      everyMs: opts.statementsEveryMs ?? 300_000,
      run: async (stopping) => void (await runStatements(db, { now: opts.now, log: opts.log, stopping })),
    }),
  },
};
