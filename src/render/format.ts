/**
 * Values formatted for people. Deterministic: every formatter pins 'en-US', so the output
 * never depends on the machine's locale, and nothing here reads the clock.
 */
import { FLOOR } from '../stats/floor.js';
import type { Delta, MetricKind, Stat } from '../stats/types.js';

/** What a suppressed figure says wherever a number would stand. */
export const SUPPRESSED_TEXT = `suppressed (fewer than ${FLOOR} stores)`;
/** The same in a narrow column (n, change) of a row whose value already says why. */
export const SUPPRESSED_SHORT_TEXT = 'suppressed';
/** Card wording of the same (DESIGN.md: suppressed cards say the figure is suppressed). */
export const SUPPRESSED_CARD_TEXT = `Suppressed: fewer than ${FLOOR} stores`;
/** No figure: first month, a gap before this month, or a non-finite number. */
export const NO_VALUE_TEXT = '—';

/** U+2212, the typographic minus: "−340" rather than "-340". */
const MINUS = '\u2212';

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const TWO_DECIMALS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

const MONTH_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

/** The kind and unit of a metric: all a formatter needs besides the number. */
export interface ValueFormat {
  kind: MetricKind;
  /** 'stores' | 'share' | 'products' | 'visits' | 'usd' | 'apps' | 'signals' … */
  unit: string;
}

function isPercent(kind: MetricKind): boolean {
  return kind === 'share' || kind === 'rate';
}

/** Rounds first, so a value that rounds to zero never prints as "−0". */
function magnitude(value: number, fmt: Intl.NumberFormat): { text: string; negative: boolean; zero: boolean } {
  const text = fmt.format(Math.abs(value));
  const zero = /^[0.,]*$/.test(text);
  return { text, negative: value < 0 && !zero, zero };
}

/** "12,345" */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return NO_VALUE_TEXT;
  const { text, negative } = magnitude(n, INTEGER);
  return negative ? MINUS + text : text;
}

/** "42.1%" from the fraction 0.4213. */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return NO_VALUE_TEXT;
  const { text, negative } = magnitude(fraction * 100, ONE_DECIMAL);
  return (negative ? MINUS : '') + text + '%';
}

/** Means: "$1,234.56" for usd, "3.25 products" for other units. */
export function formatMean(value: number, unit: string): string {
  if (!Number.isFinite(value)) return NO_VALUE_TEXT;
  const { text, negative } = magnitude(value, TWO_DECIMALS);
  const sign = negative ? MINUS : '';
  if (unit === 'usd') return `${sign}$${text}`;
  return unit && unit !== 'share' ? `${sign}${text} ${unit}` : sign + text;
}

/** A present (not suppressed) value in the metric's unit. */
export function formatValue(value: number, format: ValueFormat): string {
  if (isPercent(format.kind)) return formatPercent(value);
  if (format.kind === 'count') return formatCount(value);
  return formatMean(value, format.unit);
}

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

/** "October 2026" from "2026-10"; anything else is returned as it came. */
export function formatMonth(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return month;
  const name = MONTH_NAMES[Number(m[2]) - 1];
  return name ? `${name} ${m[1]}` : month;
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
