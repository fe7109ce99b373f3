/**
 * PNG share cards (1200×630): the public surface of the card renderer.
 * `renderCard` renders one in process, `renderCards` many on every core, `cardHash` says
 * whether a card's content changed since it was last rendered.
 */
export { CARD_HEIGHT, CARD_WIDTH } from './embed.js';
export { CARD_RENDERER_VERSION, canonicalJson, cardHash, cleanCardText, renderCard, renderCardSvg } from './card-render.js';
export { cardWorkerPath, renderCards, type RenderCardsOptions } from './card-pool.js';
export { cardAttribution, pageCardInputs } from './card-inputs.js';
