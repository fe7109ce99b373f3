/**
 * Text a database stores as sent: no U+0000 (PostgreSQL text refuses it) and no unpaired
 * surrogate (not Unicode; the drivers would write U+FFFD instead). The API refuses such a body,
 * and `accounts import` such a line, in the same words.
 */

/** True when `s` is text no database column keeps as it is. */
export function unstorable(s: string): boolean {
  return s.includes('\0') || LONE_SURROGATE.test(s);
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE = 'must not contain U+0000 or an unpaired surrogate (\\ud800-\\udfff alone)';
