/** Recorded outcomes: the learning labels of a workspace. */
import { type Kysely, sql } from 'kysely';
import { runStatements, type Statement, type When } from '../db/prepared.js';
import type { Database } from '../db/database.js';
import { currentPositionSql, currentVersionSql } from './positions.js';
import { BLOCK_ROWS, blockOfSql, valueAtSql } from './blocks.js';
import type { OutcomeRow } from './tables.js';

/** What the ranking current at recording time said about the store (outcomes-store fills it in). */
type RankedAt = 'ranked_score' | 'ranked_logit' | 'ranked_model_version' | 'ranked_version';

/** An outcome as a caller records it. */
export type NewOutcome = Omit<OutcomeRow, 'deal_id' | RankedAt> & { deal_id?: string | null };

/**
 * Hot path (every record_outcome; a deal's stage move too, naming its deal), one statement that
 * inserts the outcome `when` that holds. The outcome keeps the store's row in the ranking current
 * when it commits — what the model predicted before it saw this outcome (the model insights'
 * backtest reads it) — joined in.
 */
export function outcomeInsert(input: NewOutcome, when: When): Statement {
  const row = { ...input, deal_id: input.deal_id ?? null };
  const pos = currentPositionSql(row.workspace_id, row.store_id);
  const j = sql`(${pos} - 1) % ${sql.lit(BLOCK_ROWS)}`;
  return sql`insert into outcomes (id, workspace_id, api_key_id, store_id, action, value, occurred_at, note, lost_reason, lost_reason_other, recorded_at, deal_id,
        ranked_score, ranked_logit, ranked_model_version, ranked_version)
      select ${row.id}, w.id, ${row.api_key_id}, ${row.store_id}, ${row.action}, ${row.value}, ${row.occurred_at},
        ${row.note}, ${row.lost_reason}, ${row.lost_reason_other}, ${row.recorded_at}, ${row.deal_id},
        ${valueAtSql('f64_at', 'scores', 8, j)}, ${valueAtSql('f64_at', 'logits', 8, j)}, ${valueAtSql('i32_at', 'model_versions', 4, j)}, case when k.block is null then null else w.ranking_version end
      from workspaces w
      left join ranking_blocks k on ${blockOfSql(row.workspace_id, currentVersionSql(row.workspace_id), pos)}
      where w.id = ${row.workspace_id}${when === undefined ? sql`` : sql` and ${when}`}`;
}

/** Inserts the outcome in the caller's transaction (outcomeInsert, run). */
export async function insertOutcome(trx: Kysely<Database>, input: NewOutcome): Promise<Omit<OutcomeRow, RankedAt>> {
  await runStatements(trx, [outcomeInsert(input, undefined)]);
  return { ...input, deal_id: input.deal_id ?? null };
}

export async function listOutcomes(q: Kysely<Database>, workspaceId: string): Promise<OutcomeRow[]> {
  return q.selectFrom('outcomes').selectAll().where('workspace_id', '=', workspaceId).orderBy('recorded_at').orderBy('id').execute();
}
