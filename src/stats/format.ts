/**
 * Numbers and months formatted for people: the statistics' own texts use them, and so does every
 * renderer. Deterministic: every formatter pins 'en-US', so the output never depends on the
 * machine's locale.
 */
import type { MetricKind } from './types.js';

/** No figure: first month, a gap before this month, or a non-finite number. */
export const NO_VALUE_TEXT = '—';

/** U+2212, the typographic minus: "−340" rather than "-340". */
export const MINUS = '\u2212';

export const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const TWO_DECIMALS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const ONE_DECIMAL = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The kind and unit of a metric: all a formatter needs besides the number. */
export interface ValueFormat {
  kind: MetricKind;
  /** 'stores' | 'share' | 'products' | 'visits' | 'usd' | 'apps' | 'signals' … */
  unit: string;
}

export function isPercent(kind: MetricKind): boolean {
  return kind === 'share' || kind === 'rate';
}

/** Rounds first, so a value that rounds to zero never prints as "−0". */
export function magnitude(value: number, fmt: Intl.NumberFormat): { text: string; negative: boolean; zero: boolean } {
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

/**
 * The number a published stat's texts show. A share or rate is its numerator over its n, not its
 * value: the value is rounded to four decimals, and rounding that again to a percent with one
 * decimal can land on the other side of a half (4 of 53 stores is 7.547%, published 0.0755,
 * which would read "7.6%"). Rounded once, the text agrees with what a reader who divides the two
 * published figures gets. Other kinds show their value, already rounded to what they print.
 */
export function shownValue(stat: { value: number | null; numerator: number | null; n: number | null }, kind: MetricKind): number | null {
  if (stat.value === null || !isPercent(kind) || stat.numerator === null || !stat.n) return stat.value;
  return stat.numerator / stat.n;
}

/** A present (not suppressed) value in the metric's unit. */
export function formatValue(value: number, format: ValueFormat): string {
  if (isPercent(format.kind)) return formatPercent(value);
  if (format.kind === 'count') return formatCount(value);
  return formatMean(value, format.unit);
}

const MONTH_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

/** "October 2026" from "2026-10"; anything else is returned as it came. */
export function formatMonth(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return month;
  const name = MONTH_NAMES[Number(m[2]) - 1];
  return name ? `${name} ${m[1]}` : month;
}
