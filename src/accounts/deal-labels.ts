/** A deal's stage as a learning label, recorded when the deals module sets it (registered from accounts/module.ts). */
import { sortableId } from '../db/ids.js';
import type { StageListener } from '../deals/index.js';
import { recordOutcome } from './outcomes.js';

/** The deal's stage as a learning label: an outcome of that action naming the deal. */
export const recordDealLabel: StageListener = async (trx, { workspaceId, deal, who }, now) => {
  const at = now.toISOString();
  await recordOutcome(
    trx,
    {
      // Sortable: of two moves in one millisecond the later is the store's label (outcomes order by time, then id).
      id: sortableId('out', now),
      workspace_id: workspaceId,
      api_key_id: who.apiKeyId,
      store_id: deal.store_id,
      action: deal.stage,
      value: deal.stage === 'won' ? deal.value : null,
      occurred_at: at,
      note: null,
      lost_reason: deal.lost_reason,
      lost_reason_other: deal.lost_reason_other,
      recorded_at: at,
      deal_id: deal.id,
    },
    `deal ${deal.id} ${deal.stage}`,
    now,
  );
};
