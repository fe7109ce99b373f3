/**
 * Text as storelens keeps it, whichever door it came in by: the rule the panel has always typed
 * its text columns with (panel/read.ts, in DuckDB SQL: the published statistics and each month's
 * fingerprint rest on it), and that `accounts import`, the contact source and the API's contact
 * operations apply in JavaScript. In order:
 *  1. the blanks at either end are removed: the Unicode space separators (category Zs: the space,
 *     the no-break space U+00A0, U+1680, U+2000 to U+200A, U+202F, U+205F and the ideographic
 *     space U+3000), which DuckDB's trim() removes; a tab, a line break or any other character
 *     at an end is kept;
 *  2. nothing left is no value (null);
 *  3. each CRLF is read as LF (in one pass, left to right, as DuckDB's replace() does);
 *  4. the text is put in Unicode normalization form C (e + U+0301 ⇒ é).
 * The two forms below are one rule: test/doors/text.test.ts checks that they agree on any text.
 */

/** A blank as DuckDB's trim() sees one: a Unicode space separator (all of them are in the BMP). */
const BLANK = /^\p{Zs}$/u;

/** `s` without the blanks at its ends (DuckDB's `trim(s)`). */
export function trimBlanks(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && BLANK.test(s[start]!)) start++;
  while (end > start && BLANK.test(s[end - 1]!)) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** The SQL form of trimBlanks, for DuckDB: `expr` is a VARCHAR expression. */
export const trimBlanksSql = (expr: string): string => `trim(${expr})`;

/** Text as every door keeps it (the rule above), or null when nothing is left. */
export function keptText(raw: string): string | null {
  const t = trimBlanks(raw);
  return t === '' ? null : t.replaceAll('\r\n', '\n').normalize('NFC');
}

/** The SQL form of keptText, for DuckDB: `expr` is a VARCHAR expression; NULL when nothing is left. */
export const keptTextSql = (expr: string): string => `nfc_normalize(replace(nullif(${trimBlanksSql(expr)}, ''), chr(13) || chr(10), chr(10)))`;
