/**
 * Conditional GET/HEAD (RFC 9110 §13.1.2, §13.1.3): If-None-Match with the weak comparison a
 * GET uses, and If-Modified-Since (an HTTP-date, nothing else) when no If-None-Match is sent.
 */

/**
 * True when an If-None-Match value matches the representation's ETag: `*`, a single tag or a
 * comma list, each tag strong or `W/`-weak (weak comparison ignores the `W/` on either side).
 * `opaque` is the ETag without its quotes and without `W/`.
 */
export function ifNoneMatchMatches(header: string, opaque: string): boolean {
  const len = header.length;
  let i = 0;
  while (i < len) {
    const c = header.charCodeAt(i);
    if (c === 32 || c === 9 || c === 44) { // space, tab, comma
      i++;
      continue;
    }
    if (c === 42) { // '*': any current representation
      if (header.trim() === '*') return true;
      i++;
      continue;
    }
    if (c === 87 && header.charCodeAt(i + 1) === 47) i += 2; // 'W/'
    if (header.charCodeAt(i) !== 34) { // not a quoted tag: skip this malformed member
      const comma = header.indexOf(',', i);
      if (comma === -1) return false;
      i = comma + 1;
      continue;
    }
    const end = header.indexOf('"', i + 1);
    if (end === -1) return false;
    if (end - i - 1 === opaque.length && header.startsWith(opaque, i + 1)) return true;
    i = end + 1;
  }
  return false;
}

/**
 * True when If-Modified-Since is a valid HTTP-date at or after the last modification (seconds
 * precision). Anything else is ignored, as RFC 9110 §13.1.3 requires: `Date.parse` would take
 * `2099` or `2030-01-01` (a 304 for a client that never had the file) and read the asctime form,
 * which is GMT, in the server's time zone.
 */
export function notModifiedSince(header: string, lastModifiedMs: number): boolean {
  const since = parseHttpDate(header);
  return since !== null && Math.floor(lastModifiedMs / 1000) <= Math.floor(since / 1000);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIME = String.raw`(\d{2}):(\d{2}):(\d{2})`;
const MONTH = `(${MONTHS.join('|')})`;
/** `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate, the one to send). */
const IMF_FIXDATE = new RegExp(String.raw`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ${MONTH} (\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete RFC 850 form). */
const RFC_850 = new RegExp(String.raw`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-${MONTH}-(\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` (obsolete asctime form, GMT). */
const ASCTIME = new RegExp(String.raw`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ( \d|\d{2}) ${TIME} (\d{4})$`);

/** True for an IMF-fixdate, the only form of HTTP-date a sender may write (a Last-Modified). */
export const isImfFixdate = (text: string): boolean => IMF_FIXDATE.test(text) && parseHttpDate(text) !== null;

/** Milliseconds of an HTTP-date (RFC 9110 §5.6.7) in any of its three forms, or null. */
export function parseHttpDate(text: string, nowMs = Date.now()): number | null {
  let m: RegExpExecArray | null;
  if ((m = IMF_FIXDATE.exec(text))) return utc(+m[3], m[2], +m[1], m[4], m[5], m[6]);
  if ((m = ASCTIME.exec(text))) return utc(+m[6], m[1], +m[2], m[3], m[4], m[5]);
  if ((m = RFC_850.exec(text))) {
    // A two-digit year more than 50 years ahead is the latest past year ending in those digits.
    const thisYear = new Date(nowMs).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + +m[3];
    if (year > thisYear + 50) year -= 100;
    return utc(year, m[2], +m[1], m[4], m[5], m[6]);
  }
  return null;
}

function utc(year: number, month: string, day: number, hh: string, mm: string, ss: string): number | null {
  const [h, min, s] = [+hh, +mm, +ss];
  if (h > 23 || min > 59 || s > 60) return null;
  const date = new Date(0); // setUTCFullYear, unlike Date.UTC, keeps a year below 100 as it is
  date.setUTCFullYear(year, MONTHS.indexOf(month), day);
  date.setUTCHours(h, min, Math.min(s, 59)); // a leap second is the second before it
  // Day 0, or 31 Feb, would roll over into another month: not a date.
  return date.getUTCDate() === day ? date.getTime() : null;
}
