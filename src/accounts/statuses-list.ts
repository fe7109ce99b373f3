/**
 * Statuses in the in-market list. A status that is never in market (in-market.ts NOT_IN_MARKET:
 * `disqualified`, `do_not_contact`, `customer`) keeps its account off the list of every ranking
 * version written after it, whoever writes the version:
 *
 * - the re-ranking (refresh.ts) applies the statuses with the data it scores;
 * - an import (store.ts importAccounts) applies them to the rows it writes and carries;
 * - in a workspace without store data, where no re-ranking runs, the re-listing below (run by the
 *   background re-rank in its place) writes the current version's list again when a status was
 *   decided since it was written.
 *
 * An imported row's own `in_market` (the file's) is its source; a status does not overwrite it
 * but holds the row off the list (blocks.ts HELD), so a status set back to `open` lists it again
 * as the file had it. Every status decision that moves an account onto or off the list (from or
 * to one of those statuses) bumps the workspace's status_seq (store.ts setAccountStatus, in its
 * transaction); a version records the count whose statuses it applied,
 * read before them, and an import's version becomes current only if that count still holds
 * (rankings.ts writeRanking, under the workspace row's lock): a status decided while an import
 * is written sends the import round again, and one decided after its version became current
 * leaves the counts apart, which the re-listing mends. A version written here or by an import
 * announces the accounts that left or joined the list against the version it replaces, whatever
 * moved them (a status, the file), as the re-ranking announces its own (list-changes.ts:
 * store.exited, store.entered), in the transaction that makes the version current.
 */
import type { Kysely } from 'kysely';
import type { Db, Database } from '../db/database.js';
import { lockRows } from '../db/locks.js';
import { appendEvents } from '../webhooks/index.js';
import { NOT_IN_MARKET } from './in-market.js';
import { listBefore, storedListEvents } from './list-changes.js';
import { currentRanking, type CurrentRow } from './ranking-reads.js';
import { columnsOf, inWrites, type RankedRow, startRanking, writeRanking } from './rankings.js';
import type { AccountStatus } from './statuses.js';

/** The statuses that keep accounts off the list, by store id, with the workspace's status_seq read before them. */
export interface ListStatuses {
  seq: number;
  held: ReadonlyMap<string, AccountStatus>;
}

export async function listStatuses(q: Kysely<Database>, workspaceId: string): Promise<ListStatuses> {
  // The count first: a status decided between the two reads is applied, and counted as not yet (one re-listing more, never one less).
  const ws = await q.selectFrom('workspaces').select('status_seq').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const rows = await q
    .selectFrom('accounts')
    .select(['store_id', 'status'])
    .where('workspace_id', '=', workspaceId)
    .where('status', 'in', [...NOT_IN_MARKET])
    .execute();
  return { seq: Number(ws.status_seq), held: new Map(rows.map((r) => [r.store_id, r.status])) };
}

/** A row as its source marks it (`listed`, and as exploration), under the account's status: a held row has neither mark. */
export function underStatus(listed: boolean, explore: boolean, status: AccountStatus | undefined): { in_market: boolean; explore: boolean; held: boolean } {
  const held = listed && status !== undefined && NOT_IN_MARKET.has(status);
  return { in_market: listed && !held, explore: explore && !held, held };
}

/** Whether the row's source lists it: in the list, or held off it by its status. */
export const sourceListed = (r: Pick<CurrentRow, 'in_market' | 'held'>): boolean => r.in_market === 1 || r.held === 1;

/** The version relistStatuses wrote. */
export interface Relisted {
  accounts: number;
  in_market: number;
  explore: number;
  events: number;
}

/** Tries of a re-listing whose version another writer (an import, a status) overtook while it was written. */
const RELIST_TRIES = 5;

/**
 * A workspace without store data: its current version's list written again under the statuses
 * decided since it was written (the same rows and details; each row's mark from its source and
 * its status), with the events of the accounts that left or rejoined the list. Null, writing no
 * version, when no mark moves (the current version then records the statuses it applies) or it
 * applied them already.
 */
export async function relistStatuses(db: Db, workspaceId: string, now: Date): Promise<Relisted | null> {
  for (let i = 0; i < RELIST_TRIES; i++) {
    const applied = await db.kysely
      .selectFrom('workspaces as w')
      .leftJoin('ranking_versions as v', (j) => j.onRef('v.workspace_id', '=', 'w.id').onRef('v.version', '=', 'w.ranking_version'))
      .select(['w.status_seq', 'v.status_seq as version_seq', 'v.version'])
      .where('w.id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    // No ranking yet (nothing to list), or one that applies the statuses decided so far.
    if (applied.version === null || (applied.version_seq !== null && Number(applied.version_seq) === Number(applied.status_seq))) return null;
    const statuses = await listStatuses(db.kysely, workspaceId);
    const current = await currentRanking(db.kysely, workspaceId);
    if (current.gen === null) return null;
    const rows: RankedRow[] = current.rows.map((r) => ({ ...r, ...underStatus(sourceListed(r), r.explore === 1, statuses.held.get(r.store_id)) }));
    const unchanged = rows.every((r, k) => r.in_market === (current.rows[k].in_market === 1) && r.held === (current.rows[k].held === 1) && r.explore === (current.rows[k].explore === 1));
    if (unchanged) {
      // The same list: only the count it applies is recorded, on the version itself, under the lock a flip takes.
      const recorded = await db.write(async (trx) => {
        await lockRows(trx, 'workspaces', { id: workspaceId });
        const ws = await trx.selectFrom('workspaces').select(['ranking_version', 'status_seq']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
        if (Number(ws.ranking_version) !== current.version || Number(ws.status_seq) !== statuses.seq) return false;
        await trx.updateTable('ranking_versions').set({ status_seq: statuses.seq }).where('workspace_id', '=', workspaceId).where('version', '=', current.version).execute();
        return true;
      });
      if (recorded) return null;
      continue;
    }
    // In the version's own order (its rows are read best position first).
    const columns = columnsOf(rows.map((r, rank) => ({ ...r, rank })));
    // The same accounts and details: an account that rejoins shows the signals it showed.
    const events = await storedListEvents(db.kysely, workspaceId, current.gen, listBefore(current.rows), columns);
    const run = inWrites(db);
    const next = await startRanking(run, workspaceId, false, now);
    const made = await writeRanking(run, workspaceId, next, {
      rows: columns,
      basedOn: current.version,
      statusSeq: statuses.seq,
      now,
      // Current only if `current` still is: the events are of the version it replaces.
      onCurrent: (trx) => appendEvents(trx, workspaceId, events, now),
    });
    if (made) return { accounts: rows.length, in_market: rows.filter((r) => r.in_market).length, explore: rows.filter((r) => r.explore).length, events: events.length };
  }
  throw new Error(`the ranking of workspace ${workspaceId} changed under ${RELIST_TRIES} re-listings in a row; the next re-rank tries again`);
}
