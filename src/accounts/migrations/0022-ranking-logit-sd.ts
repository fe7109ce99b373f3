/**
 * 0022_ranking_logit_sd: each ranking row keeps the posterior standard deviation of its logit
 * (accounts/fit.ts logitSd), from which the row's score interval is shown. Rows imported with a
 * score (model version 0), and rows of rankings written before it, have none (null).
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('rankings').addColumn('logit_sd', 'double precision').execute();
  },
};
