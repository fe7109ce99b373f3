/**
 * The pipeline's deals, their notes and their history. Every writer here keeps the module's
 * invariants in the caller's transaction: a change bumps `version` (checked in the UPDATE's
 * WHERE, so of two racing changes based on one version exactly one matches a row), writes its
 * history rows, and a creation or stage move records the outcome that makes it a learning label
 * for the ranking. The events of these changes are pipeline.ts's, in the same transaction.
 */
import type { Kysely, Selectable } from 'kysely';
import type { DealStage, LostReason } from '../core/deal-stages.js';
import { canMove } from './stages.js';
import { datedAfter } from '../core/dated.js';
import { sortableId } from '../db/ids.js';
import type { Database } from '../db/database.js';
import type { DealHistoryTable, DealsTable } from './tables.js';

type DealRow = Selectable<DealsTable>;

/** A deal as the API shows it: its row without the workspace. */
export type Deal = { object: 'deal' } & Omit<DealRow, 'workspace_id'>;

/** The fields update_deal may change (the stage moves only through writeDealStage: move_deal_stage). */
export const EDITABLE = ['title', 'value', 'currency', 'owner_email', 'expected_close_date'] as const;
export type EditableField = (typeof EDITABLE)[number];
export type DealFields = Pick<DealsTable, EditableField>;

export interface StageMove {
  stage: DealStage;
  lost_reason: LostReason | null;
  lost_reason_other: string | null;
}

/** Who changed it: `key:<key id>` (or `member:<email>`), and the key an outcome is recorded under. */
export interface Actor {
  actor: string;
  apiKeyId: string;
}

export type FieldValue = string | number | null;

export interface DealChange {
  object: 'deal_change';
  deal_id: string;
  version: number;
  kind: DealHistoryTable['kind'];
  field: string;
  from: FieldValue;
  to: FieldValue;
  lost_reason: LostReason | null;
  lost_reason_other: string | null;
  actor: string;
  changed_at: string;
}

export interface DealNote {
  object: 'deal_note';
  id: string;
  deal_id: string;
  body: string;
  actor: string;
  created_at: string;
}

/** A change based on a version: what became of it. */
export type ChangeResult =
  | { outcome: 'changed'; deal: Deal }
  | { outcome: 'not-found' }
  | { outcome: 'stale'; current: number }
  | { outcome: 'forbidden'; from: DealStage; to: DealStage };

/** A ChangeResult whose `changed` also says what changed (`E`): what the change's event tells. */
export type Changed<E> = Exclude<ChangeResult, { outcome: 'changed' }> | ({ outcome: 'changed'; deal: Deal } & E);

/** One changed field of an update: its value before and after. */
export interface FieldChange {
  field: EditableField;
  from: FieldValue;
  to: FieldValue;
}

export const toDeal = (r: DealRow): Deal => ({
  object: 'deal',
  id: r.id,
  store_id: r.store_id,
  title: r.title,
  value: r.value === null ? null : Number(r.value),
  currency: r.currency,
  stage: r.stage,
  owner_email: r.owner_email,
  expected_close_date: r.expected_close_date,
  lost_reason: r.lost_reason,
  lost_reason_other: r.lost_reason_other,
  version: Number(r.version),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

async function findDeal(q: Kysely<Database>, workspaceId: string, id: string): Promise<DealRow | undefined> {
  return q.selectFrom('deals').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
}

export async function getDeal(q: Kysely<Database>, workspaceId: string, id: string): Promise<Deal | undefined> {
  const row = await findDeal(q, workspaceId, id);
  return row && toDeal(row);
}

/** The store's deals (API shape), oldest first: the account detail lists them. */
export async function dealsOfStore(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<Deal[]> {
  const rows = await q.selectFrom('deals').selectAll().where('workspace_id', '=', workspaceId).where('store_id', '=', storeId).orderBy('id').execute();
  return rows.map(toDeal);
}

export interface DealFilters {
  stage?: DealStage;
  storeId?: string;
  ownerEmail?: string;
  /** ISO timestamp (UTC, as toISOString writes): deals updated at or after it. */
  updatedSince?: string;
}

/** A page of the workspace's deals in creation order, after the deal id `after`. */
export async function listDeals(q: Kysely<Database>, workspaceId: string, f: DealFilters, after: string | undefined, limit: number): Promise<Deal[]> {
  let query = q.selectFrom('deals').selectAll().where('workspace_id', '=', workspaceId);
  if (f.stage) query = query.where('stage', '=', f.stage);
  if (f.storeId) query = query.where('store_id', '=', f.storeId);
  if (f.ownerEmail) query = query.where('owner_email', '=', f.ownerEmail);
  if (f.updatedSince) query = query.where('updated_at', '>=', f.updatedSince);
  if (after) query = query.where('id', '>', after);
  return (await query.orderBy('id').limit(limit).execute()).map(toDeal);
}

const history = (deal: DealRow, version: number, field: string, kind: DealHistoryTable['kind'], from: FieldValue, to: FieldValue, who: Actor, at: string): DealHistoryTable => ({
  deal_id: deal.id,
  version,
  field,
  workspace_id: deal.workspace_id,
  kind,
  from_value: JSON.stringify(from),
  to_value: JSON.stringify(to),
  lost_reason: kind === 'field_changed' ? null : deal.lost_reason,
  lost_reason_other: kind === 'field_changed' ? null : deal.lost_reason_other,
  actor: who.actor,
  created_at: at,
});

/**
 * Inserts a deal (version 1) for a store the caller has checked is visible: its history starts
 * with the creation (deals/pipeline.ts records its stage as a label).
 */
export async function insertDeal(
  trx: Kysely<Database>,
  workspaceId: string,
  storeId: string,
  fields: DealFields,
  move: StageMove,
  who: Actor,
  now: Date,
): Promise<Deal> {
  const at = now.toISOString();
  const row: DealRow = {
    id: sortableId('deal', now),
    workspace_id: workspaceId,
    store_id: storeId,
    ...fields,
    stage: move.stage,
    lost_reason: move.lost_reason,
    lost_reason_other: move.lost_reason_other,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  await trx.insertInto('deals').values(row).execute();
  await trx.insertInto('deal_history').values(history(row, 1, 'stage', 'created', null, row.stage, who, at)).execute();
  return toDeal(row);
}

/**
 * Writes `next` over the deal if it still has `version` (the WHERE decides, so two changes based
 * on one version cannot both match). False when another change got there first.
 */
async function writeVersion(trx: Kysely<Database>, deal: DealRow, next: Partial<DealRow>): Promise<boolean> {
  const r = await trx
    .updateTable('deals')
    .set({ ...next, version: deal.version + 1 })
    .where('workspace_id', '=', deal.workspace_id)
    .where('id', '=', deal.id)
    .where('version', '=', deal.version)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Runs one versioned change: `ifMatch` given ⇒ the deal must be at that version (else stale);
 * none ⇒ the change applies to the latest version (re-read when another change lands between the
 * read and the write). `plan` returns what to write, or a refusal; it is given the change's time:
 * `now`, or just after the deal's last change when that is later (a request that started first
 * but lost the race to another is dated after it), so a deal's changes are dated in the order
 * they committed, and its latest stage is its store's latest label.
 */
async function change<E>(
  trx: Kysely<Database>,
  workspaceId: string,
  id: string,
  ifMatch: number | undefined,
  now: Date,
  plan: (deal: DealRow, at: string) => Changed<E> | { write: Partial<DealRow>; after: (deal: DealRow) => Promise<{ deal: Deal } & E> },
): Promise<Changed<E>> {
  for (;;) {
    const deal = await findDeal(trx, workspaceId, id);
    if (!deal) return { outcome: 'not-found' };
    deal.version = Number(deal.version);
    if (ifMatch !== undefined && deal.version !== ifMatch) return { outcome: 'stale', current: deal.version };
    const at = datedAfter(now, deal.updated_at).toISOString();
    const p = plan(deal, at);
    if ('outcome' in p) return p;
    if (await writeVersion(trx, deal, p.write)) return { outcome: 'changed', ...(await p.after({ ...deal, ...p.write, version: deal.version + 1 })) };
    if (ifMatch !== undefined) return { outcome: 'stale', current: deal.version + 1 };
  }
}

/**
 * Changes a deal's fields. Only fields whose value differs count: each is one history row and
 * one entry of `changes`; nothing differing changes nothing (no version, `changes` empty).
 */
export async function updateDealFields(
  trx: Kysely<Database>,
  workspaceId: string,
  id: string,
  patch: Partial<DealFields>,
  ifMatch: number | undefined,
  who: Actor,
  now: Date,
): Promise<Changed<{ changes: FieldChange[] }>> {
  return change<{ changes: FieldChange[] }>(trx, workspaceId, id, ifMatch, now, (deal, at) => {
    const changed = EDITABLE.filter((f) => patch[f] !== undefined && patch[f] !== deal[f]);
    if (changed.length === 0) return { outcome: 'changed', deal: toDeal(deal), changes: [] };
    const write: Partial<DealRow> = Object.fromEntries(changed.map((f) => [f, patch[f]]));
    write.updated_at = at;
    return {
      write,
      after: async (next) => {
        const changes: FieldChange[] = changed.map((field) => ({ field, from: deal[field], to: next[field] }));
        await trx
          .insertInto('deal_history')
          .values(changes.map((c) => history(next, next.version, c.field, 'field_changed', c.from, c.to, who, at)))
          .execute();
        return { deal: toDeal(next), changes };
      },
    };
  });
}

/**
 * Moves a deal to another stage when the transition table allows it (else `forbidden`): one
 * history row and the new stage recorded as a label; `from` is the stage it left. Leaving lost
 * clears the lost reason.
 */
export async function writeDealStage(
  trx: Kysely<Database>,
  workspaceId: string,
  id: string,
  move: StageMove,
  ifMatch: number | undefined,
  who: Actor,
  now: Date,
): Promise<Changed<{ from: DealStage }>> {
  return change<{ from: DealStage }>(trx, workspaceId, id, ifMatch, now, (deal, at) => {
    if (!canMove(deal.stage, move.stage)) return { outcome: 'forbidden', from: deal.stage, to: move.stage };
    return {
      write: { stage: move.stage, lost_reason: move.lost_reason, lost_reason_other: move.lost_reason_other, updated_at: at },
      after: async (next) => {
        await trx.insertInto('deal_history').values(history(next, next.version, 'stage', 'stage_changed', deal.stage, next.stage, who, at)).execute();
        return { deal: toDeal(next), from: deal.stage };
      },
    };
  });
}

/** Adds a note (no version change, no event); undefined when the workspace has no such deal. */
export async function addDealNote(trx: Kysely<Database>, workspaceId: string, dealId: string, body: string, actor: string, now: Date): Promise<DealNote | undefined> {
  if (!(await findDeal(trx, workspaceId, dealId))) return undefined;
  const note = { id: sortableId('dnote', now), workspace_id: workspaceId, deal_id: dealId, body, actor, created_at: now.toISOString() };
  await trx.insertInto('deal_notes').values(note).execute();
  const { workspace_id: _w, ...rest } = note;
  return { object: 'deal_note', ...rest };
}

/** A page of the deal's notes, oldest first; undefined when the workspace has no such deal. */
export async function listDealNotes(q: Kysely<Database>, workspaceId: string, dealId: string, after: string | undefined, limit: number): Promise<DealNote[] | undefined> {
  if (!(await findDeal(q, workspaceId, dealId))) return undefined;
  let query = q.selectFrom('deal_notes').select(['id', 'deal_id', 'body', 'actor', 'created_at']).where('workspace_id', '=', workspaceId).where('deal_id', '=', dealId);
  if (after) query = query.where('id', '>', after);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ object: 'deal_note', ...r }));
}

/**
 * A page of the deal's history in the order it happened (version, then field), after the
 * position `after`; undefined when the workspace has no such deal.
 */
export async function listDealHistory(
  q: Kysely<Database>,
  workspaceId: string,
  dealId: string,
  after: { version: number; field: string } | undefined,
  limit: number,
): Promise<DealChange[] | undefined> {
  if (!(await findDeal(q, workspaceId, dealId))) return undefined;
  let query = q.selectFrom('deal_history').selectAll().where('workspace_id', '=', workspaceId).where('deal_id', '=', dealId);
  if (after) query = query.where((eb) => eb.or([eb('version', '>', after.version), eb.and([eb('version', '=', after.version), eb('field', '>', after.field)])]));
  const rows = await query.orderBy('version').orderBy('field').limit(limit).execute();
  return rows.map((r) => ({
    object: 'deal_change',
    deal_id: r.deal_id,
    version: Number(r.version),
    kind: r.kind,
    field: r.field,
    from: JSON.parse(r.from_value) as FieldValue,
    to: JSON.parse(r.to_value) as FieldValue,
    lost_reason: r.lost_reason,
    lost_reason_other: r.lost_reason_other,
    actor: r.actor,
    changed_at: r.created_at,
  }));
}
