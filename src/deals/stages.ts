/** A deal's moves between the stages (core/deal-stages.ts). */
import type { DealStage } from '../core/deal-stages.js';

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
