/**
 * Recording an outcome, the rule every module that records one goes through (record_outcome, a
 * deal's stage move): the label is stored, then each module that acts on a store's outcomes is
 * told, in the same transaction. The outreach module registers one such listener from its
 * module.ts: a won or lost outcome ends the store's outreach.
 */
import type { Kysely } from 'kysely';
import { listeners } from '../core/listeners.js';
import type { Database } from '../db/database.js';
import { insertOutcome, type NewOutcome } from './outcomes-store.js';

/** A recorded outcome as a listener sees it; `cause` names it for the listener's records (`outcome out_… won`, `deal deal_… lost`). */
export interface RecordedOutcome {
  workspaceId: string;
  storeId: string;
  action: string;
  cause: string;
}

export type OutcomeListener = (trx: Kysely<Database>, o: RecordedOutcome, now: Date) => Promise<void>;

const recorded = listeners<Parameters<OutcomeListener>>();

/** Adds a listener told of every outcome recorded from now on (once per listener). */
export const onOutcomeRecorded: (l: OutcomeListener) => void = recorded.add;

/** Stores the outcome, then tells each listener, in the caller's transaction. */
export async function recordOutcome(trx: Kysely<Database>, input: NewOutcome, cause: string, now: Date): ReturnType<typeof insertOutcome> {
  const row = await insertOutcome(trx, input);
  await recorded.tell(trx, { workspaceId: row.workspace_id, storeId: row.store_id, action: row.action, cause }, now);
  return row;
}
