import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ifNoneMatchMatches, notModifiedSince } from '../../src/serve/conditional.js';

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
