/**
 * PNG share cards (1200×630): the public surface of the card renderer. `renderCards` renders
 * them on every core, `cardHash` says whether a card's content changed since it was last
 * rendered. One card in process: card-render.ts (`renderCard`), which loads satori; nothing
 * here does until cards are rendered, so a publish without cards does not pay for it.
 */
export { CARD_HEIGHT, CARD_WIDTH } from './embed.js';
export { CARD_RENDERER_VERSION, cardHash } from './card-hash.js';
export { cardWorkerPath, renderCards, type RenderCardsOptions } from './card-pool.js';
export { cardAttribution, pageCardInputs } from './card-inputs.js';
