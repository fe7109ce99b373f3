/**
 * The full monthly series of a page as CSV (SPEC.md "Statistics CSV row"): RFC 4180 quoting,
 * CRLF, a header row, booleans true/false, empty cell for null, numbers in their shortest JS
 * form and never prefixed, text cells starting with = + - @ tab or CR prefixed with an apostrophe.
 */
import { stringify } from 'csv-stringify/sync';
import type { Stat } from '../stats/types.js';

export const CSV_COLUMNS = [
  'metric_key', 'dimension', 'month', 'value', 'numerator', 'n', 'null_rate', 'suppressed',
  'delta_value', 'delta_cohort_n', 'delta_suppressed', 'methodology_version',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

/** Guards a text cell against spreadsheet formula injection. */
export function guardText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

type Cell = string | number | boolean | null;

export function csvRow(s: Stat): Cell[] {
  return [
    guardText(s.metric_key),
    guardText(s.dimension),
    guardText(s.month),
    s.value,
    s.numerator,
    s.n,
    s.null_rate,
    s.suppressed,
    s.delta?.value ?? null,
    s.delta?.cohort_n ?? null,
    s.delta ? s.delta.suppressed : null,
    guardText(s.methodology_version),
  ];
}

/** Rows sorted by metric (registry order is the caller's), dimension, month. */
export function renderCsv(stats: Stat[]): string {
  return stringify([[...CSV_COLUMNS], ...stats.map(csvRow)], {
    record_delimiter: '\r\n',
    quoted: false,
    quoted_match: /[\r\n]/,
    escape_formulas: false,
    cast: {
      boolean: (b) => (b ? 'true' : 'false'),
      number: (n) => String(n),
    },
  });
}
