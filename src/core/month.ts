/** A month as every interface writes it: `YYYY-MM` (01–12). */

/** The pattern without anchors, for regex engines elsewhere (DuckDB's regexp_full_match). */
export const MONTH_PATTERN = '\\d{4}-(0[1-9]|1[0-2])';

export const MONTH = new RegExp(`^${MONTH_PATTERN}$`);

export const isMonth = (s: string): boolean => MONTH.test(s);

/** A month as a number that sorts like it (YYYYMM), for cursors that carry a month. */
export const monthNumber = (month: string): number => Number(month.slice(0, 4)) * 100 + Number(month.slice(5, 7));

/** The month of a monthNumber. */
export const monthText = (n: number): string => `${String(Math.floor(n / 100)).padStart(4, '0')}-${String(n % 100).padStart(2, '0')}`;

/** `2026-01` → `2025-12`. */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
