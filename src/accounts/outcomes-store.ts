/** Recorded outcomes: the learning labels of a workspace. */
import { type Kysely, sql } from 'kysely';
import { prepared } from '../db/prepared.js';
import type { Database } from '../compose/database.js';
import type { OutcomeRow } from './tables.js';

/** Hot path (every record_outcome; a deal's stage move too, naming its deal). */
export async function insertOutcome(trx: Kysely<Database>, input: Omit<OutcomeRow, 'deal_id'> & { deal_id?: string | null }): Promise<OutcomeRow> {
  const row: OutcomeRow = { ...input, deal_id: input.deal_id ?? null };
  await prepared(
    trx,
    sql`insert into outcomes (id, workspace_id, api_key_id, store_id, action, value, occurred_at, note, lost_reason, lost_reason_other, recorded_at, deal_id)
      values (${row.id}, ${row.workspace_id}, ${row.api_key_id}, ${row.store_id}, ${row.action}, ${row.value}, ${row.occurred_at},
        ${row.note}, ${row.lost_reason}, ${row.lost_reason_other}, ${row.recorded_at}, ${row.deal_id})`,
  );
  return row;
}

export async function listOutcomes(q: Kysely<Database>, workspaceId: string): Promise<OutcomeRow[]> {
  return q.selectFrom('outcomes').selectAll().where('workspace_id', '=', workspaceId).orderBy('recorded_at').orderBy('id').execute();
}
