/**
 * One share card, in process: CardInput → satori SVG → @resvg/resvg-js PNG (1200×630). Loaded
 * only when cards are rendered (card-pool.ts, card-worker.ts): satori takes half a second to load.
 */
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { CARD_HEIGHT, CARD_WIDTH, cardElement } from './card-element.js';
import { loadCardFonts } from './card-fonts.js';
import type { CardInput } from './page.js';

const LINE_BREAKS = /\r\n|[\r\n\t\u2028\u2029\u0085]/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as the card can draw it: breaks and tabs become spaces, controls and bidi overrides go,
 * and each run of characters no bundled Inter subset draws (CJK, emoji, …) becomes one "?"
 * instead of satori's "NOGLYPH" boxes (Inter's woff files have no U+FFFD glyph either).
 */
export function cleanCardText(text: string, covers: (codePoint: number) => boolean): string {
  const flat = text.normalize('NFC').replace(LINE_BREAKS, ' ').replace(CONTROLS, '');
  let out = '';
  let missing = false;
  for (const ch of flat) {
    const cp = ch.codePointAt(0)!;
    const drawable = cp !== 0xfffd && covers(cp);
    if (!drawable && !missing) out += '?';
    if (drawable) out += ch;
    missing = !drawable;
  }
  return out;
}

/** The card as SVG (satori): useful to debug a layout. */
export async function renderCardSvg(card: CardInput): Promise<string> {
  const { fonts, family, covers } = loadCardFonts();
  const element = cardElement(card, (t) => cleanCardText(t, covers), family);
  // satori's types expect a ReactNode; a plain { type, props } tree is what it walks.
  return satori(element as unknown as Parameters<typeof satori>[0], { width: CARD_WIDTH, height: CARD_HEIGHT, fonts });
}

/** The card as a 1200×630 PNG. Same input ⇒ same bytes. */
export async function renderCard(card: CardInput): Promise<Buffer> {
  const svg = await renderCardSvg(card);
  const png = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render().asPng();
  return Buffer.from(png);
}
