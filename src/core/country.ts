import { trimBlanks } from './text.js';

/**
 * A country as every door takes it: an ISO 3166-1 alpha-2 code, two letters in either case,
 * blanks around them ignored (the blanks the panel trims: core/text.ts), kept in capitals (`gb` ⇒ `GB`). The panel (panel/read.ts, the same
 * rule in SQL), `accounts import`, the accounts list's `country` filter and `storelens workspaces
 * profile --countries` all read a country so.
 */

/** The code in capitals, or null when the text is no two-letter code. */
export function countryCode(raw: string): string | null {
  const t = trimBlanks(raw);
  return /^[A-Za-z]{2}$/.test(t) ? t.toUpperCase() : null;
}

/** What a country must be, in words. */
export const COUNTRY_SAYS = 'must be a two-letter ISO 3166-1 country code, e.g. US or GB';
