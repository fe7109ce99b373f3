/**
 * Whether a card's content changed since it was last rendered: its hash, kept beside the PNG.
 * Apart from the renderer (card-render.ts) so that a publish without cards loads no satori.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';
import type { CardInput } from './page.js';

/**
 * Bump whenever the card's look changes (layout, fonts, colours, formatting): every card hash
 * changes with it, so the next publish re-renders every card.
 */
export const CARD_RENDERER_VERSION = 'card-v2';

/** sha256 (hex) of the renderer version and the canonical JSON of the card's input. */
export function cardHash(card: CardInput): string {
  return createHash('sha256').update(`${CARD_RENDERER_VERSION}\n${canonicalJson(card)}`).digest('hex');
}
