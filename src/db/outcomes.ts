/** Recorded outcomes: the learning labels of a workspace. */
import type { Kysely } from 'kysely';
import type { Db } from './index.js';
import type { Database, OutcomeRow } from './schema.js';

export async function insertOutcome(trx: Kysely<Database>, row: OutcomeRow): Promise<OutcomeRow> {
  await trx.insertInto('outcomes').values(row).execute();
  return row;
}

export async function listOutcomes(db: Db, workspaceId: string): Promise<OutcomeRow[]> {
  return db.kysely.selectFrom('outcomes').selectAll().where('workspace_id', '=', workspaceId).orderBy('recorded_at').orderBy('id').execute();
}
