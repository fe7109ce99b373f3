/**
 * Conditional GET/HEAD (RFC 9110 §13.1.2, §13.1.3): If-None-Match with the weak comparison a
 * GET uses, and If-Modified-Since when no If-None-Match is sent.
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

/** True when If-Modified-Since is a valid date at or after the last modification (seconds precision). */
export function notModifiedSince(header: string, lastModifiedMs: number): boolean {
  const since = Date.parse(header);
  return !Number.isNaN(since) && Math.floor(lastModifiedMs / 1000) <= Math.floor(since / 1000);
}
