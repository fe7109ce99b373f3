/**
 * Worker-thread entry of the card pool (piscina). Node 20 cannot run .ts workers, so the pool
 * always loads the built file `dist/render/card-worker.js`; fonts load once per worker.
 */
import { renderCard } from './card-render.js';
import type { CardInput } from './page.js';

export default async function renderCardTask(card: CardInput): Promise<Uint8Array> {
  return renderCard(card);
}
