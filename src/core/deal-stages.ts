/**
 * The sales pipeline's vocabulary, shared by deals and the outcomes that label the ranking. A deal moves through DEAL_STAGES, and a reported outcome's
 * action is one of the same stages (won and lost end a deal; the stages between are weaker
 * evidence for the ranking), so outcomes and deals share this one list.
 */
export const DEAL_STAGES = ['discovery', 'qualifying', 'proposal', 'negotiation', 'won', 'lost'] as const;

export type DealStage = (typeof DEAL_STAGES)[number];

/** Why a deal was lost; `other` needs a free-text `lost_reason_other`. */
export const LOST_REASONS = ['no_response', 'timing', 'budget', 'chose_another_agency', 'project_cancelled', 'not_a_fit', 'other'] as const;

export type LostReason = (typeof LOST_REASONS)[number];
