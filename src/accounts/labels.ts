/**
 * How a reported outcome (or, later, a deal's stage) becomes a learning label. Won is a
 * positive and lost a negative, each at full weight; the stages between are weaker positives
 * (the account engaged), weighted by how far the conversation got. A store's latest outcome is
 * its label.
 */
import type { DealStage } from '../core/deal-stages.js';
import type { Label } from './model.js';

export const LABELS: Record<DealStage, { y: number; weight: number }> = {
  won: { y: 1, weight: 1 },
  lost: { y: 0, weight: 1 },
  negotiation: { y: 1, weight: 0.6 },
  proposal: { y: 1, weight: 0.45 },
  qualifying: { y: 1, weight: 0.3 },
  discovery: { y: 1, weight: 0.15 },
};

/** Outcomes in recording order ⇒ one label per store (the latest outcome wins). */
export function labelsOf(outcomes: ReadonlyArray<{ store_id: string; action: DealStage }>): Label[] {
  const latest = new Map<string, DealStage>();
  for (const o of outcomes) latest.set(o.store_id, o.action);
  return [...latest].map(([store_id, action]) => ({ store_id, ...LABELS[action] }));
}
