/**
 * Recording an outcome, the rule every module that records one goes through (record_outcome, a
 * deal's stage move): the label is stored, and each module that acts on a store's outcomes
 * answers the write it makes of it, in the same transaction or the same statement. The outreach
 * module registers one such listener from its module.ts: a won or lost outcome ends the store's
 * outreach.
 */
import type { Kysely } from 'kysely';
import { listeners } from '../core/listeners.js';
import type { Database } from '../db/database.js';
import { runStatements, type Statement, type When } from '../db/prepared.js';
import { type NewOutcome, outcomeInsert } from './outcomes-store.js';

/** A recorded outcome as a listener sees it; `cause` names it for the listener's records (`outcome out_… won`, `deal deal_… lost`). */
export interface RecordedOutcome {
  workspaceId: string;
  storeId: string;
  action: string;
  cause: string;
}

/**
 * A module's part of recording an outcome: the statements it writes (built on `q`, each doing its
 * work only `when` holds), in order, or none. It reads nothing the outcome's insert writes: on PostgreSQL
 * record_outcome sends them all as one statement, which sees the database as it was before it.
 */
export type OutcomeListener = (q: Kysely<Database>, o: RecordedOutcome, now: Date, when: When) => readonly Statement[];

const recorded = listeners<Parameters<OutcomeListener>, ReturnType<OutcomeListener>>();

/** Adds a listener asked of every outcome recorded from now on (once per listener). */
export const onOutcomeRecorded: (l: OutcomeListener) => void = recorded.add;

/** The statements that record the outcome: its insert, then each listener's, all doing their work only `when` holds. */
export function outcomeWrites(q: Kysely<Database>, input: NewOutcome, cause: string, now: Date, when: When): Statement[] {
  const o: RecordedOutcome = { workspaceId: input.workspace_id, storeId: input.store_id, action: input.action, cause };
  return [outcomeInsert(input, when), ...recorded.ask(q, o, now, when).flat()];
}

/** Records the outcome in the caller's transaction. */
export async function recordOutcome(trx: Kysely<Database>, input: NewOutcome, cause: string, now: Date): Promise<void> {
  await runStatements(trx, outcomeWrites(trx, input, cause, now, undefined));
}
