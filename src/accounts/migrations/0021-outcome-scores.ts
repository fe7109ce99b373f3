/**
 * 0021_outcome_scores: each outcome keeps the account's row in the ranking that was current when
 * the outcome was recorded (its score, logit, model version and ranking version), so the model
 * insights' backtest scores an outcome with what the model predicted before it saw it — ranking
 * versions and model weights are kept only for an hour. Outcomes recorded before it, and outcomes
 * of a store the ranking did not list, have none (null).
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('outcomes').addColumn('ranked_score', 'double precision').execute();
    await db.schema.alterTable('outcomes').addColumn('ranked_logit', 'double precision').execute();
    await db.schema.alterTable('outcomes').addColumn('ranked_model_version', 'integer').execute();
    await db.schema.alterTable('outcomes').addColumn('ranked_version', 'integer').execute();
  },
};
