/**
 * The sales pipeline's vocabulary. A deal moves through DEAL_STAGES, and a reported outcome's
 * action is one of the same stages (won and lost end a deal; the stages between are weaker
 * evidence for the ranking), so outcomes and deals share this one list.
 */
export const DEAL_STAGES = ['discovery', 'qualifying', 'proposal', 'negotiation', 'won', 'lost'] as const;

export type DealStage = (typeof DEAL_STAGES)[number];

/** Why a deal was lost; `other` needs a free-text `lost_reason_other`. */
export const LOST_REASONS = ['no_response', 'timing', 'budget', 'chose_another_agency', 'project_cancelled', 'not_a_fit', 'other'] as const;

export type LostReason = (typeof LOST_REASONS)[number];

/**
 * The transition table: the stages a deal in `from` may move to. An open stage may move to any
 * other stage (forward, back, or straight to won or lost); won and lost are terminal and only
 * reopen to an open stage (won ⇄ lost directly is refused: reopen first). Moving to the stage a
 * deal is already in is not a transition. Anything not listed is refused (422).
 */
export const STAGE_TRANSITIONS: Readonly<Record<DealStage, readonly DealStage[]>> = {
  discovery: ['qualifying', 'proposal', 'negotiation', 'won', 'lost'],
  qualifying: ['discovery', 'proposal', 'negotiation', 'won', 'lost'],
  proposal: ['discovery', 'qualifying', 'negotiation', 'won', 'lost'],
  negotiation: ['discovery', 'qualifying', 'proposal', 'won', 'lost'],
  won: ['discovery', 'qualifying', 'proposal', 'negotiation'],
  lost: ['discovery', 'qualifying', 'proposal', 'negotiation'],
};

export const canMove = (from: DealStage, to: DealStage): boolean => STAGE_TRANSITIONS[from].includes(to);
