/**
 * One share card, in process: CardInput → satori SVG → @resvg/resvg-js PNG (1200×630).
 * Also the card's content hash, which decides whether a published card is re-rendered.
 */
import { createHash } from 'node:crypto';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { CARD_HEIGHT, CARD_WIDTH, cardElement } from './card-element.js';
import { loadCardFonts } from './card-fonts.js';
import type { CardInput } from './page.js';

/**
 * Bump whenever the card's look changes (layout, fonts, colours, formatting): every card hash
 * changes with it, so the next publish re-renders every card.
 */
export const CARD_RENDERER_VERSION = 'card-v2';

/** JSON with object keys sorted at every level and undefined members dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** sha256 (hex) of the renderer version and the canonical JSON of the card's input. */
export function cardHash(card: CardInput): string {
  return createHash('sha256').update(`${CARD_RENDERER_VERSION}\n${canonicalJson(card)}`).digest('hex');
}

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
