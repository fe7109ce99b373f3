/** Recorded outcomes: the learning labels of a workspace. */
import { type Kysely, sql } from 'kysely';
import { type Db, sqliteHandle } from './index.js';
import type { Database, OutcomeRow } from './schema.js';

const INSERT_SQLITE = `insert into outcomes (id, workspace_id, api_key_id, store_id, action, value, occurred_at, note, lost_reason, lost_reason_other, recorded_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

export async function insertOutcome(trx: Kysely<Database>, row: OutcomeRow): Promise<OutcomeRow> {
  const prepare = sqliteHandle(trx);
  if (prepare) {
    // Hot path on SQLite (inside the group commit): prepared once, run synchronously.
    prepare(INSERT_SQLITE).run(row.id, row.workspace_id, row.api_key_id, row.store_id, row.action, row.value, row.occurred_at, row.note, row.lost_reason, row.lost_reason_other, row.recorded_at);
    return row;
  }
  await sql`insert into outcomes (id, workspace_id, api_key_id, store_id, action, value, occurred_at, note, lost_reason, lost_reason_other, recorded_at)
    values (${row.id}, ${row.workspace_id}, ${row.api_key_id}, ${row.store_id}, ${row.action}, ${row.value}, ${row.occurred_at},
      ${row.note}, ${row.lost_reason}, ${row.lost_reason_other}, ${row.recorded_at})`.execute(trx);
  return row;
}

export async function listOutcomes(db: Db, workspaceId: string): Promise<OutcomeRow[]> {
  return db.kysely.selectFrom('outcomes').selectAll().where('workspace_id', '=', workspaceId).orderBy('recorded_at').orderBy('id').execute();
}
