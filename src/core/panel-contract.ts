/** The input contract of a monthly panel (DESIGN.md "Input contract"). */

import { nextMonth } from './month.js';
import { trimBlanks } from './text.js';

export type ColumnType = 'string' | 'country' | 'month' | 'integer' | 'decimal' | 'apps' | 'boolean';

export interface PanelColumn {
  name: string;
  type: ColumnType;
  /** may be left out of a file (its absence is said on stderr); every other column is required */
  optional?: boolean;
  /** a count or an amount: below zero is outside its domain */
  nonNegative?: boolean;
}

export const AD_COLUMNS = ['ads_meta', 'ads_google', 'ads_tiktok', 'ads_pinterest'] as const;
export const AGENTIC_COLUMNS = ['llms_txt', 'product_schema', 'agent_checkout', 'mcp_server', 'ai_crawlers_allowed'] as const;
/** The plans, from lowest to highest (a plan outside the list ranks nowhere). */
export const PLANS = ['basic', 'grow', 'advanced', 'plus'] as const;
export type Plan = (typeof PLANS)[number];

/**
 * The longest store id, in UTF-16 code units as JavaScript counts them: what the API takes in a
 * path or a body (a longer one would be an account no request can name), the panel, the contact
 * source and `accounts import` alike.
 */
export const STORE_ID_MAX = 500;

export const PANEL_COLUMNS: readonly PanelColumn[] = [
  { name: 'store_id', type: 'string' },
  // Only the private runs carry the domain; the custom-domain share reads it (unknown without it).
  { name: 'domain', type: 'string', optional: true },
  { name: 'country', type: 'country' },
  { name: 'category', type: 'string' },
  { name: 'plan', type: 'string' },
  { name: 'created_month', type: 'month' },
  { name: 'product_count', type: 'integer', nonNegative: true },
  { name: 'monthly_visits', type: 'integer', nonNegative: true },
  { name: 'est_monthly_revenue_usd', type: 'decimal', nonNegative: true },
  { name: 'apps', type: 'apps' },
  ...AD_COLUMNS.map((name) => ({ name, type: 'boolean' as const })),
  ...AGENTIC_COLUMNS.map((name) => ({ name, type: 'boolean' as const })),
];

/**
 * A month holding fewer than this share of the stores of the month before is refused (a partial
 * delivery looks like a collapse of the platform) unless publish is given --allow-shrink.
 */
export const SHRINK_RATIO = 0.5;

/**
 * A month sharing fewer than this share of its store ids with the month before (of the smaller
 * of the two) is refused (ids rewritten, every store read as closed and opened again) unless
 * publish is given --allow-new-ids.
 */
export const ID_OVERLAP_RATIO = 0.5;

/** The breakdown dimensions of every page (apps only on platform-apps). */
export const DIMENSIONS = ['country', 'category', 'plan'] as const;
export type DimensionName = (typeof DIMENSIONS)[number] | 'app';

export const PANEL_FILE = /^(\d{4}-\d{2})\.(csv|parquet|ndjson)$/;
/** A store id a spreadsheet wrote in scientific notation (1.23457E+11), its digits past the sixth lost: a regular expression for DuckDB and JavaScript alike. */
export const SCIENTIFIC_ID = '[0-9](\\.[0-9]+)?[eE]\\+[0-9]+';
/** What is wrong with such a store id, in words. */
export const scientificIdSays = (id: string): string =>
  `${JSON.stringify(id)} is a number in scientific notation, as a spreadsheet saves a long id it read as a number: its digits are lost; export the store ids as text`;

const SCIENTIFIC = new RegExp(`^(?:${SCIENTIFIC_ID})$`);

/** What a store id that is empty, or only blanks, is told at every door (the panel's SQL check too). */
export const STORE_ID_EMPTY = 'must not be empty or only spaces';

/**
 * Why a store id is none, as every door says it (the API, the assistant's tools, `accounts
 * import`, the contact source; the panel checks the same in SQL), or null: only blanks (those
 * the panel trims: core/text.ts) is as empty as none, longer than STORE_ID_MAX, or a
 * spreadsheet's scientific notation. Every other character is kept.
 */
export function storeIdRefusal(id: string): string | null {
  const trimmed = trimBlanks(id);
  if (trimmed === '') return STORE_ID_EMPTY;
  if (id.length > STORE_ID_MAX) return `must be at most ${STORE_ID_MAX} characters`;
  if (SCIENTIFIC.test(trimmed)) return scientificIdSays(id);
  return null;
}

/** The contact source beside the month files (contacts/source.ts reads it): not a month. */
export const CONTACTS_FILE = /^contacts\.(csv|parquet|ndjson)$/;

/** `2026-10` → a month index (year × 12 + month − 1), so the previous month is `mi - 1`. */
export const monthIndex = (month: string): number => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

/** Month arithmetic lives with the month format (month.ts); the panel's callers find it here too. */
export { nextMonth, previousMonth } from './month.js';

/** Every month from `from` to `to`, inclusive. */
export function monthRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to; m = nextMonth(m)) out.push(m);
  return out;
}
