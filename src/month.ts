/** A month as every interface writes it: `YYYY-MM` (01–12). */

/** The pattern without anchors, for regex engines elsewhere (DuckDB's regexp_full_match). */
export const MONTH_PATTERN = '\\d{4}-(0[1-9]|1[0-2])';

export const MONTH = new RegExp(`^${MONTH_PATTERN}$`);

export const isMonth = (s: string): boolean => MONTH.test(s);
