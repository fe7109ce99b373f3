/**
 * The pipeline's changes as the API makes them: each writes the deal through the store and
 * appends its event (deals/events.ts) in the same transaction, so an event exists exactly when
 * its change committed. A creation emits `deal.created`; an update that changes a field,
 * `deal.updated` with the changes; a stage move, only `deal.stage_changed`. A creation and a
 * stage move tell the stage listeners (onDealStage): the accounts module records the stage as a
 * learning label (accounts/deal-labels.ts), which ends the store's outreach when it is won or
 * lost.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { appendEvents } from '../webhooks/index.js';
import { type Actor, type ChangeResult, type Deal, type DealFields, insertDeal, type StageMove, updateDealFields, writeDealStage } from './store.js';
import { listeners } from '../core/listeners.js';

/** Creates a deal (version 1) for a store the caller has checked is visible, and emits `deal.created`. */
export async function createDeal(trx: Kysely<Database>, workspaceId: string, storeId: string, fields: DealFields, move: StageMove, who: Actor, now: Date): Promise<Deal> {
  const deal = await insertDeal(trx, workspaceId, storeId, fields, move, who, now);
  await stageSet(trx, workspaceId, deal, who, now);
  await appendEvents(trx, workspaceId, [{ type: 'deal.created', data: { deal_id: deal.id, store_id: storeId, deal, actor: who.actor, created_at: deal.created_at } }], now);
  return deal;
}

/** Changes a deal's fields; emits `deal.updated` when one really changed (nothing else does). */
export async function updateDeal(
  trx: Kysely<Database>,
  workspaceId: string,
  id: string,
  patch: Partial<DealFields>,
  ifMatch: number | undefined,
  who: Actor,
  now: Date,
): Promise<ChangeResult> {
  const r = await updateDealFields(trx, workspaceId, id, patch, ifMatch, who, now);
  if (r.outcome !== 'changed') return r;
  const { deal, changes } = r;
  if (changes.length > 0) {
    await appendEvents(trx, workspaceId, [{ type: 'deal.updated', data: { deal_id: deal.id, store_id: deal.store_id, deal, changes, actor: who.actor, changed_at: deal.updated_at } }], now);
  }
  return { outcome: 'changed', deal };
}

/** Moves a deal to another stage when the transition table allows it; emits `deal.stage_changed` (and no `deal.updated`). */
export async function moveDealStage(trx: Kysely<Database>, workspaceId: string, id: string, move: StageMove, ifMatch: number | undefined, who: Actor, now: Date): Promise<ChangeResult> {
  const r = await writeDealStage(trx, workspaceId, id, move, ifMatch, who, now);
  if (r.outcome !== 'changed') return r;
  const { deal, from } = r;
  // The label is dated as the move (after the deal's earlier changes, store.ts change()).
  await stageSet(trx, workspaceId, deal, who, new Date(deal.updated_at));
  const data = {
    deal_id: deal.id,
    store_id: deal.store_id,
    from,
    to: deal.stage,
    // The deal's version after the move: the If-Match of a receiver's next change.
    version: deal.version,
    changed_at: deal.updated_at,
    actor: who.actor,
    lost_reason: deal.lost_reason,
    lost_reason_other: deal.lost_reason_other,
  };
  await appendEvents(trx, workspaceId, [{ type: 'deal.stage_changed', data }], now);
  return { outcome: 'changed', deal };
}

/** A deal's stage as it was set (at creation or by a move), told to the listeners. */
export interface RecordedStage {
  workspaceId: string;
  deal: Deal;
  who: Actor;
}

export type StageListener = (trx: Kysely<Database>, s: RecordedStage, now: Date) => Promise<void>;

const stageListeners = listeners<Parameters<StageListener>>();

/** Adds a listener told of every stage set from now on, in its transaction (once per listener). */
export const onDealStage: (l: StageListener) => void = stageListeners.add;

function stageSet(trx: Kysely<Database>, workspaceId: string, deal: Deal, who: Actor, now: Date): Promise<void> {
  return stageListeners.tell(trx, { workspaceId, deal, who }, now);
}
