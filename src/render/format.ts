/**
 * Values formatted for people. Deterministic: every formatter pins 'en-US', so the output
 * never depends on the machine's locale, and nothing here reads the clock.
 */
import { FLOOR } from '../stats/floor.js';
import { formatCount, formatValue, INTEGER, isPercent, magnitude, MINUS, NO_VALUE_TEXT, ONE_DECIMAL, TWO_DECIMALS, type ValueFormat } from '../stats/format.js';
import type { Delta, Stat } from '../stats/types.js';

export { formatCount, formatMean, formatMonth, formatPercent, formatValue, NO_VALUE_TEXT, type ValueFormat } from '../stats/format.js';

/** What a suppressed figure says wherever a number would stand. */
export const SUPPRESSED_TEXT = `suppressed (fewer than ${FLOOR} stores)`;
/** The same in a narrow column (n, change) of a row whose value already says why. */
export const SUPPRESSED_SHORT_TEXT = 'suppressed';
/** Card wording of the same (DESIGN.md: suppressed cards say the figure is suppressed). */
export const SUPPRESSED_CARD_TEXT = `Suppressed: fewer than ${FLOOR} stores`;

/** A stat's value, or the suppression text. */
export function formatStatValue(stat: Stat, format: ValueFormat): string {
  if (stat.suppressed) return SUPPRESSED_TEXT;
  if (stat.value === null) return NO_VALUE_TEXT;
  return formatValue(stat.value, format);
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
  if (delta.suppressed) return SUPPRESSED_TEXT;
  if (delta.value === null) return NO_VALUE_TEXT;
  return formatDeltaValue(delta.value, format);
}

/** A stat's change column: "suppressed" when the stat itself is, else {@link formatDelta}. */
export function formatStatDelta(stat: Stat, format: ValueFormat): string {
  return stat.suppressed ? SUPPRESSED_SHORT_TEXT : formatDelta(stat.delta, format);
}

const DIMENSION_NAMES: Record<string, string> = {
  country: 'Country',
  category: 'Category',
  plan: 'Plan',
  app: 'App',
};

/** "All stores", "Country: US", "Category: =cmd" (raw text: escape it for the target format). */
export function dimensionLabel(dimension: string): string {
  if (dimension === 'all') return 'All stores';
  const colon = dimension.indexOf(':');
  if (colon < 0) return dimension;
  const name = dimension.slice(0, colon);
  const label = DIMENSION_NAMES[name] ?? name.charAt(0).toUpperCase() + name.slice(1);
  return `${label}: ${dimension.slice(colon + 1)}`;
}

/** A stat's figures as a page's table shows them, in column order: value, stores (n), change vs the previous month. */
export function statFigures(stat: Stat, format: ValueFormat): [value: string, n: string, change: string] {
  return [formatStatValue(stat, format), formatN(stat), formatStatDelta(stat, format)];
}
