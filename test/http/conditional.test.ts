import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ifNoneMatchMatches, notModifiedSince, parseHttpDate } from '../../src/http/conditional.js';

describe('If-None-Match', () => {
  const opaque = 'agentic-commerce-2025-01-0123456789abcdef';
  it.each([
    [`"${opaque}"`, true],
    [`W/"${opaque}"`, true],
    ['*', true],
    [' * ', true],
    [`"a", "${opaque}"`, true],
    [`"a",W/"${opaque}"`, true],
    [`  "a" ,  "${opaque}"  `, true],
    [`garbage, "${opaque}"`, true],
    [`"${opaque}x"`, false],
    [`"x${opaque}"`, false],
    [opaque, false],
    [`"a", "b"`, false],
    ['', false],
    [`"${opaque}`, false],
    [`w/"${opaque}"`, false],
    ['"a", *', false],
  ])('%s matches: %s', (header, expected) => {
    expect(ifNoneMatchMatches(header, opaque)).toBe(expected);
  });

  it('treats a comma inside a quoted tag as part of the tag', () => {
    expect(ifNoneMatchMatches('"a,b"', 'a,b')).toBe(true);
    expect(ifNoneMatchMatches('"a,b"', 'a')).toBe(false);
    expect(ifNoneMatchMatches('"a,b"', 'b')).toBe(false);
  });

  it('matches exactly when the list holds the tag (strong or weak), for any list', () => {
    const tagChar = fc.constantFrom(...'abcdef0123456789-_.,:;'.split(''));
    const tag = fc.string({ unit: tagChar, minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.tuple(tag, fc.boolean())), tag, (list, target) => {
        const header = list.map(([t, weak]) => `${weak ? 'W/' : ''}"${t}"`).join(', ');
        expect(ifNoneMatchMatches(header, target)).toBe(list.some(([t]) => t === target));
      }),
    );
  });
});

describe('If-Modified-Since', () => {
  const lm = Date.parse('Mon, 03 Feb 2025 04:05:06 GMT');
  it('holds at or after the last modification, to the second', () => {
    expect(notModifiedSince('Mon, 03 Feb 2025 04:05:06 GMT', lm)).toBe(true);
    expect(notModifiedSince('Mon, 03 Feb 2025 05:00:00 GMT', lm)).toBe(true);
    expect(notModifiedSince('Mon, 03 Feb 2025 04:05:05 GMT', lm)).toBe(false);
    expect(notModifiedSince('Mon, 03 Feb 2025 04:05:06 GMT', lm + 500)).toBe(true);
    expect(notModifiedSince('yesterday', lm)).toBe(false);
  });
});

describe('HTTP-date', () => {
  const t = Date.UTC(1994, 10, 6, 8, 49, 37);
  const now = Date.UTC(2026, 10, 30);
  it.each(['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'])('reads %j (RFC 9110 §5.6.7) as GMT', (text) => {
    expect(parseHttpDate(text, now)).toBe(t);
  });

  it('reads a two-digit year more than 50 years ahead as the latest past year with those digits', () => {
    expect(parseHttpDate('Wednesday, 01-Jan-76 00:00:00 GMT', now)).toBe(Date.UTC(2076, 0, 1));
    expect(parseHttpDate('Saturday, 01-Jan-77 00:00:00 GMT', now)).toBe(Date.UTC(1977, 0, 1));
    expect(parseHttpDate('Thursday, 01-Jan-26 00:00:00 GMT', now)).toBe(Date.UTC(2026, 0, 1));
  });

  it.each([
    '2099', '2099-01-01', '2099-01-01T00:00:00Z', 'Dec 31 2099', '1e10', '',
    'Sun, 06 Nov 1994 08:49:37', 'Sun, 06 Nov 1994 08:49:37 +0000', 'sun, 06 nov 1994 08:49:37 gmt',
    'Sun, 6 Nov 1994 08:49:37 GMT', 'Sun, 31 Feb 1994 08:49:37 GMT', 'Sun, 00 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 24:00:00 GMT', ' Sun, 06 Nov 1994 08:49:37 GMT', 'Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT',
  ])('refuses %j', (text) => {
    expect(parseHttpDate(text, now)).toBeNull();
  });

  it('ignores an If-Modified-Since that is no HTTP-date', () => {
    expect(notModifiedSince('2099-01-01', Date.UTC(2025, 0, 1))).toBe(false);
  });
});
