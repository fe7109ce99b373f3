/** Recorded outcomes: the learning labels of a workspace. */
import { type Kysely, sql } from 'kysely';
import { prepared } from './prepared.js';
import type { Database, OutcomeRow } from './schema.js';

/** Hot path (every record_outcome). */
export async function insertOutcome(trx: Kysely<Database>, row: OutcomeRow): Promise<OutcomeRow> {
  await prepared(
    trx,
    sql`insert into outcomes (id, workspace_id, api_key_id, store_id, action, value, occurred_at, note, lost_reason, lost_reason_other, recorded_at)
      values (${row.id}, ${row.workspace_id}, ${row.api_key_id}, ${row.store_id}, ${row.action}, ${row.value}, ${row.occurred_at},
        ${row.note}, ${row.lost_reason}, ${row.lost_reason_other}, ${row.recorded_at})`,
  );
  return row;
}

export async function listOutcomes(q: Kysely<Database>, workspaceId: string): Promise<OutcomeRow[]> {
  return q.selectFrom('outcomes').selectAll().where('workspace_id', '=', workspaceId).orderBy('recorded_at').orderBy('id').execute();
}
