/**
 * Values formatted for people. Deterministic: every formatter pins 'en-US', so the output
 * never depends on the machine's locale, and nothing here reads the clock.
 */
import { FLOOR } from '../stats/floor.js';
import { formatCount, formatMonth, formatValue, INTEGER, isPercent, magnitude, MINUS, NO_VALUE_TEXT, ONE_DECIMAL, shownValue, TWO_DECIMALS, type ValueFormat } from '../stats/format.js';
import type { Delta, Stat } from '../stats/types.js';

export { formatCount, formatMean, formatMonth, formatPercent, formatValue, NO_VALUE_TEXT, shownValue, type ValueFormat } from '../stats/format.js';

/**
 * Why a figure is not published, in a reader's words. The published data cannot tell a cell below
 * the floor from one hidden to protect it (saying which would narrow what a reader can work out
 * about the small one), so every hidden figure gives both reasons.
 */
export const HIDDEN_REASON = `fewer than ${FLOOR} stores, or hidden to protect such a figure`;
/** What a hidden figure says wherever a number would stand. */
export const SUPPRESSED_TEXT = `not published (${HIDDEN_REASON})`;
/** The same in a narrow column (n, change) of a row whose value already says why. */
export const SUPPRESSED_SHORT_TEXT = 'not published';
/** Why a change vs the previous month is hidden beside a published figure. */
export const HIDDEN_CHANGE_REASON = `too few stores in both months for a change (fewer than ${FLOOR}), or hidden to protect such a change`;
/** A hidden change in the change column of a published row; the table's note says why ({@link HIDDEN_CHANGE_REASON}). */
export const HIDDEN_CHANGE_TEXT = 'hidden';
/** Card wording of a hidden figure: the headline, then the reason. */
export const SUPPRESSED_CARD_TEXT = 'Not published';
export const SUPPRESSED_CARD_REASON = `Fewer than ${FLOOR} stores, or hidden to protect such a figure`;

/** A stat's value, or the suppression text. */
export function formatStatValue(stat: Stat, format: ValueFormat): string {
  if (stat.suppressed) return SUPPRESSED_TEXT;
  const value = shownValue(stat, format.kind);
  return value === null ? NO_VALUE_TEXT : formatValue(value, format);
}

/** A stat's sample size ("1,234"), or "suppressed". */
export function formatN(stat: Stat): string {
  if (stat.suppressed) return SUPPRESSED_SHORT_TEXT;
  return stat.n === null ? NO_VALUE_TEXT : formatCount(stat.n);
}

/**
 * A change in the metric's own unit: "+1.2 pts" (shares and rates, percentage points),
 * "−340" (counts), "+$12.30" or "−0.25 products" (means). Zero has no sign.
 */
export function formatDeltaValue(value: number, format: ValueFormat): string {
  if (!Number.isFinite(value)) return NO_VALUE_TEXT;
  let body: string;
  let m: ReturnType<typeof magnitude>;
  if (isPercent(format.kind)) {
    m = magnitude(value * 100, ONE_DECIMAL);
    body = `${m.text} pts`;
  } else if (format.kind === 'count') {
    m = magnitude(value, INTEGER);
    body = m.text;
  } else {
    m = magnitude(value, TWO_DECIMALS);
    body = format.unit === 'usd' ? `$${m.text}` : format.unit && format.unit !== 'share' ? `${m.text} ${format.unit}` : m.text;
  }
  return (m.negative ? MINUS : m.zero ? '' : '+') + body;
}

/** A delta's change: formatted, the suppression text, or "—" when there is none. */
export function formatDelta(delta: Delta | null, format: ValueFormat): string {
  if (delta === null) return NO_VALUE_TEXT;
  if (delta.suppressed) return `hidden (${HIDDEN_CHANGE_REASON})`;
  if (delta.value === null) return NO_VALUE_TEXT;
  return formatDeltaValue(delta.value, format);
}

/** A stat's change column: "not published" when the stat itself is, "hidden" when only its change is, else {@link formatDelta}. */
export function formatStatDelta(stat: Stat, format: ValueFormat): string {
  if (stat.suppressed) return SUPPRESSED_SHORT_TEXT;
  return stat.delta?.suppressed ? HIDDEN_CHANGE_TEXT : formatDelta(stat.delta, format);
}

/** Whether a published stat's change vs the previous month is hidden. */
export const changeHidden = (stat: Stat): boolean => !stat.suppressed && stat.delta?.suppressed === true;

/** "+1.2 pts vs September 2026": a published change for a card; undefined when there is none or it is hidden. */
export function changeLine(stat: Stat, format: ValueFormat): string | undefined {
  const d = stat.delta;
  if (stat.suppressed || d === null || d.suppressed || d.value === null || !Number.isFinite(d.value)) return undefined;
  return `${formatDeltaValue(d.value, format)} vs ${formatMonth(d.prior_month)}`;
}

const DIMENSION_NAMES: Record<string, string> = {
  country: 'Country',
  category: 'Category',
  plan: 'Plan',
  app: 'App',
};

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/**
 * A country's English name from the runtime's own data ("AE" → "United Arab Emirates"). A code
 * the runtime does not know, or anything that is not a two-letter code, is shown as itself.
 */
export function countryName(code: string): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return code;
  let name = COUNTRY_NAMES.get(code);
  if (name === undefined) COUNTRY_NAMES.set(code, (name = lookUpCountry(code)));
  return name;
}

/**
 * The names already looked up, by two-letter code (at most 52² of them): a page names each
 * country in every one of its tables, and the runtime's lookup is slow (profiled, a third of a
 * second of the pages one added month writes).
 */
const COUNTRY_NAMES = new Map<string, string>();

function lookUpCountry(code: string): string {
  try {
    const name = REGIONS.of(code.toUpperCase());
    return name === undefined || name.toUpperCase() === code.toUpperCase() || name === 'Unknown Region' ? code : name;
  } catch {
    return code;
  }
}

/** `{name, value}` of a dimension string; null for `all` (or a string without a name). */
function splitDimension(dimension: string): { name: string; value: string } | null {
  const colon = dimension.indexOf(':');
  return dimension === 'all' || colon < 0 ? null : { name: dimension.slice(0, colon), value: dimension.slice(colon + 1) };
}

/** A dimension value as people read it: a country's name, any other value as it is. */
export function valueLabel(dimension: string): string {
  const d = splitDimension(dimension);
  if (d === null) return dimension === 'all' ? 'All stores' : dimension;
  return d.name === 'country' ? countryName(d.value) : d.value;
}

/** "All stores", "Country: United States", "Category: =cmd" (raw text: escape it for the target format). */
export function dimensionLabel(dimension: string): string {
  const d = splitDimension(dimension);
  if (d === null) return dimension === 'all' ? 'All stores' : dimension;
  const label = DIMENSION_NAMES[d.name] ?? d.name.charAt(0).toUpperCase() + d.name.slice(1);
  return `${label}: ${valueLabel(dimension)}`;
}

/** Country names read in a sentence with "the": "stores in the United States". */
const WITH_THE = /^(United |Czech Republic$|Dominican Republic$|Central African Republic$|Marshall Islands$|Solomon Islands$|Cayman Islands$|Faroe Islands$|Falkland Islands|British Virgin Islands$|U\.S\. |Netherlands$|Philippines$|Bahamas$|Maldives$|Gambia$|Comoros$|Seychelles$|Vatican City$)/;

/**
 * A stat's sentence or citation (stats/text.ts) with its country code replaced by the country's
 * name: "… of stores in AE …" → "… of stores in the United Arab Emirates …". The JSON and CSV keep
 * the text with the code; any other text is returned as it is.
 */
export function textForPeople(text: string, dimension: string): string {
  const d = splitDimension(dimension);
  if (d === null || d.name !== 'country') return text;
  const code = d.value.replace(/\s+/g, ' ').trim();
  const name = countryName(code);
  if (name === code) return text;
  const named = WITH_THE.test(name) ? `the ${name}` : name;
  const pattern = new RegExp(`\\b([Ss])tores in ${code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'gu');
  return text.replace(pattern, (_, s: string) => `${s}tores in ${named}`);
}

/** A stat with its sentence and citation for people ({@link textForPeople}). */
export function statForPeople<T extends Pick<Stat, 'sentence' | 'citation' | 'dimension'>>(stat: T): T {
  return { ...stat, sentence: textForPeople(stat.sentence, stat.dimension), citation: textForPeople(stat.citation, stat.dimension) };
}

/** A stat's figures as a page's table shows them, in column order: value, stores (n), change vs the previous month. */
export function statFigures(stat: Stat, format: ValueFormat): [value: string, n: string, change: string] {
  return [formatStatValue(stat, format), formatN(stat), formatStatDelta(stat, format)];
}
