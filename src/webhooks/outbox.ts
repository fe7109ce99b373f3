/**
 * The outbox: events written in the same transaction as the change that causes them (the
 * caller's trx). The webhook worker delivers them; nothing else writes the table.
 *
 * A workspace's events are numbered by its row in outbox_sequences, taken by the UPDATE that
 * reserves the numbers and held until the writing transaction commits: the numbers of a
 * workspace's events follow the order their changes committed in, across processes, and the
 * fan-out (webhooks/messages-store.ts) numbers each endpoint's messages in that order.
 *
 * The workspace half appends with appendEvents: an event of a declared type (core/event-declaration.ts)
 * with the payload its schema allows, so a wrong payload fails the typecheck.
 */
import { type Kysely, sql } from 'kysely';
import type { DomainEvent, EventType } from '../core/event-declaration.js';
import { consecutiveIds } from '../db/ids.js';
import { runBulk } from '../db/prepared.js';
import type { Database } from '../db/database.js';

/** An outbox row to write: any payload. */
export interface NewEvent {
  workspace_id: string;
  type: EventType;
  data: Record<string, unknown>;
}

/** Reserves `n` numbers of the workspace's events, locking its row for the rest of trx; resolves to the first. */
async function reserveEventSeq(trx: Kysely<Database>, workspaceId: string, n: number): Promise<number> {
  const r = await trx
    .insertInto('outbox_sequences')
    .values({ workspace_id: workspaceId, last_seq: n })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ last_seq: sql`outbox_sequences.last_seq + ${n}` }))
    .returning('last_seq')
    .executeTakeFirstOrThrow();
  return Number(r.last_seq) - n + 1;
}

/** Appends the workspace's events, in order, in the caller's transaction (the change's). */
export async function appendEvents(trx: Kysely<Database>, workspaceId: string, events: readonly DomainEvent[], now: Date): Promise<void> {
  if (events.length > 0) await appendWorkspaceEvents(trx, workspaceId, events, now);
}

/**
 * Appends events whose payloads no declaration checks: for benches and tests of delivery (the
 * outbox, fan-out and worker do not read payloads). The workspace half uses appendEvents.
 */
export async function appendUncheckedEvents(trx: Kysely<Database>, events: readonly NewEvent[], now: Date): Promise<void> {
  const byWorkspace = new Map<string, NewEvent[]>();
  for (const e of events) {
    const mine = byWorkspace.get(e.workspace_id);
    if (mine) mine.push(e);
    else byWorkspace.set(e.workspace_id, [e]);
  }
  // Workspaces in one order, so two writers of the same workspaces never wait for each other in a cycle.
  for (const workspaceId of [...byWorkspace.keys()].sort()) await appendWorkspaceEvents(trx, workspaceId, byWorkspace.get(workspaceId)!, now);
}

/** One workspace's events (at least one), numbered and written in order. */
async function appendWorkspaceEvents(trx: Kysely<Database>, workspaceId: string, mine: readonly { type: EventType; data: object }[], now: Date): Promise<void> {
  const first = await reserveEventSeq(trx, workspaceId, mine.length);
  const nextId = consecutiveIds('evt');
  // Many rows a statement, prepared once (a re-rank of a million accounts can append a hundred thousand).
  await runBulk(
    trx,
    {
      table: 'outbox',
      columns: [['id', 'text'], ['seq', 'bigint'], ['type', 'text'], ['data', 'text']],
      same: [['workspace_id', 'text', workspaceId], ['created_at', 'text', now.toISOString()]],
    },
    {
      count: mine.length,
      width: 4,
      fill: (j, row) => {
        row[0] = nextId();
        row[1] = first + j;
        row[2] = mine[j].type;
        row[3] = JSON.stringify(mine[j].data);
      },
    },
  );
}

export async function listEvents(q: Kysely<Database>, workspaceId: string): Promise<{ id: string; type: EventType; data: Record<string, unknown>; created_at: string }[]> {
  const rows = await q.selectFrom('outbox').select(['id', 'type', 'data', 'created_at']).where('workspace_id', '=', workspaceId).orderBy('seq').execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
}
