/** Recorded outcomes: the learning labels of a workspace. */
import { type Kysely, sql } from 'kysely';
import { prepared } from '../db/prepared.js';
import type { Database } from '../compose/database.js';
import type { OutcomeRow } from './tables.js';

/** What the ranking current at recording time said about the store (outcomes-store fills it in). */
type RankedAt = 'ranked_score' | 'ranked_logit' | 'ranked_model_version' | 'ranked_version';

/** An outcome as a caller records it. */
export type NewOutcome = Omit<OutcomeRow, 'deal_id' | RankedAt> & { deal_id?: string | null };

/**
 * Hot path (every record_outcome; a deal's stage move too, naming its deal). The outcome keeps
 * the store's row in the ranking current in the caller's transaction — what the model predicted
 * before it saw this outcome (the model insights' backtest reads it).
 */
export async function insertOutcome(trx: Kysely<Database>, input: NewOutcome): Promise<Omit<OutcomeRow, RankedAt>> {
  const row = { ...input, deal_id: input.deal_id ?? null };
  const [ranked] = await prepared(
    trx,
    sql<{ score: number; logit: number; model_version: number; version: number }>`
    select r.score, r.logit, r.model_version, w.ranking_version as version
    from workspaces w
    join ranking_positions p on p.workspace_id = w.id and p.version = w.ranking_version and p.store_id = ${row.store_id}
    join rankings r on r.workspace_id = w.id and r.version = w.ranking_version and r.pos = p.pos
    where w.id = ${row.workspace_id}`,
  );
  await prepared(
    trx,
    sql`insert into outcomes (id, workspace_id, api_key_id, store_id, action, value, occurred_at, note, lost_reason, lost_reason_other, recorded_at, deal_id,
        ranked_score, ranked_logit, ranked_model_version, ranked_version)
      values (${row.id}, ${row.workspace_id}, ${row.api_key_id}, ${row.store_id}, ${row.action}, ${row.value}, ${row.occurred_at},
        ${row.note}, ${row.lost_reason}, ${row.lost_reason_other}, ${row.recorded_at}, ${row.deal_id},
        ${ranked?.score ?? null}, ${ranked === undefined ? null : Number(ranked.logit)}, ${ranked === undefined ? null : Number(ranked.model_version)}, ${ranked === undefined ? null : Number(ranked.version)})`,
  );
  return row;
}

export async function listOutcomes(q: Kysely<Database>, workspaceId: string): Promise<OutcomeRow[]> {
  return q.selectFrom('outcomes').selectAll().where('workspace_id', '=', workspaceId).orderBy('recorded_at').orderBy('id').execute();
}
