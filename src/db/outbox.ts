/**
 * The outbox: events written in the same transaction as the change that causes them (the
 * caller's trx). The webhook worker delivers them; nothing else writes the table.
 */
import type { Kysely } from 'kysely';
import type { EventType } from '../events/types.js';
import { newId } from './ids.js';
import type { Database } from './schema.js';

export interface NewEvent {
  workspace_id: string;
  type: EventType;
  data: Record<string, unknown>;
}

/** Rows per insert (under SQLite's bound-parameter limit). */
const CHUNK = 500;

let lastSeq = 0;
/** Increasing within a process, ordered by time across processes (epoch µs, bumped on ties). */
function nextSeq(now: Date): number {
  lastSeq = Math.max(lastSeq + 1, now.getTime() * 1000);
  return lastSeq;
}

export async function appendEvents(trx: Kysely<Database>, events: readonly NewEvent[], now: Date): Promise<void> {
  for (let i = 0; i < events.length; i += CHUNK) {
    await trx
      .insertInto('outbox')
      .values(
        events.slice(i, i + CHUNK).map((e) => ({
          id: newId('evt'),
          seq: nextSeq(now),
          workspace_id: e.workspace_id,
          type: e.type,
          data: JSON.stringify(e.data),
          created_at: now.toISOString(),
        })),
      )
      .execute();
  }
}

export async function listEvents(q: Kysely<Database>, workspaceId: string): Promise<{ id: string; type: EventType; data: Record<string, unknown>; created_at: string }[]> {
  const rows = await q.selectFrom('outbox').select(['id', 'type', 'data', 'created_at']).where('workspace_id', '=', workspaceId).orderBy('seq').execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
}
