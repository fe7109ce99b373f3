/**
 * Inter from @fontsource/inter (.woff: satori cannot read .woff2), read once per process.
 * Each unicode subset is registered under its own family name, because satori falls back
 * across families but not across fonts of one family; `covers` says which code points some
 * subset can draw, so text can be cleaned before layout.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Font } from 'satori';

const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'] as const;
const WEIGHTS = [400, 600, 700] as const;

export interface CardFonts {
  fonts: Font[];
  /** CSS font-family list naming every subset, Latin first. */
  family: string;
  covers: (codePoint: number) => boolean;
}

function familyName(subset: string): string {
  return subset === 'latin' ? 'Inter' : `Inter ${subset}`;
}

/** "U+0000-00FF,U+0131" → [[0, 255], [305, 305]] */
function parseRanges(spec: string): Array<[number, number]> {
  return spec.split(',').map((part) => {
    const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
    const start = parseInt(lo!, 16);
    return [start, hi === undefined ? start : parseInt(hi, 16)];
  });
}

let cached: CardFonts | undefined;

export function loadCardFonts(): CardFonts {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const unicode = JSON.parse(readFileSync(require.resolve('@fontsource/inter/unicode.json'), 'utf8')) as Record<string, string>;
  const fonts: Font[] = [];
  const ranges: Array<[number, number]> = [];
  for (const subset of SUBSETS) {
    for (const weight of WEIGHTS) {
      const file = require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`);
      fonts.push({ name: familyName(subset), data: readFileSync(file), weight, style: 'normal' });
    }
    const spec = unicode[subset];
    if (spec) ranges.push(...parseRanges(spec));
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const covers = (cp: number) => ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
  const family = SUBSETS.map((s) => (s === 'latin' ? 'Inter' : `"${familyName(s)}"`)).join(', ');
  cached = { fonts, family, covers };
  return cached;
}
