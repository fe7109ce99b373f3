import { describe, expect, it } from 'vitest';
import { compressible, compressibleType, COMPRESSIBLE_MIN_BYTES, parseAcceptEncoding, selectCoding } from '../../src/http/accept-encoding.js';

describe('selectCoding (RFC 9110 §12.5.3)', () => {
  it.each<[string | undefined, 'br' | 'gzip' | null]>([
    [undefined, null], // no field: no preference, identity is what a bare client reads
    ['', null], // an empty field: no coding wanted
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'], // Chromium: equal weights, the smaller output
    ['gzip, deflate', 'gzip'], // Node's fetch
    ['GZIP', 'gzip'], // codings are case-insensitive
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'], // `*` is every coding not listed
    ['gzip;q=0, *', 'br'],
    ['*;q=0', null], // identity too is refused, but nothing offered is acceptable: identity all the same
    ['identity;q=0', null],
    ['identity;q=0, gzip', 'gzip'],
    ['gzip;q=0', null],
    ['br;q=0, gzip;q=0', null],
    ['gzip;q=0.5, br;q=0.4', 'gzip'], // the highest weight wins
    ['gzip;q=0.2', 'gzip'], // identity unlisted comes after a coding listed
    ['*;q=0.3, br;q=0.2, gzip;q=0.2', null], // …but takes the weight of `*`
    ['gzip;q=0.5, identity', null], // identity preferred outright
    ['gzip;q=1, identity;q=1', 'gzip'], // a tie goes to the smaller
    ['gzip ; q=0.8', 'gzip'],
    ['gzip;Q=0.001', 'gzip'],
    ['gzip;q=1.5', null], // not a qvalue: the member is ignored
    ['gzip;q=0.1234', null],
    ['gzip;q=abc, br;q=0', null],
    ['deflate, compress', null], // nothing this server offers
    ['gzip;q=0, gzip', null], // the first entry of a coding counts
  ])('%j ⇒ %s', (header, expected) => {
    expect(selectCoding(header)).toBe(expected);
  });

  it('joins repeated fields as one list', () => {
    expect(selectCoding(['identity;q=0', 'gzip'])).toBe('gzip');
  });

  it('chooses among the codings offered only', () => {
    expect(selectCoding('br, gzip;q=0.5', { br: false, gzip: true })).toBe('gzip');
    expect(selectCoding('br', { br: false, gzip: true })).toBe(null);
  });

  it("gives identity the weight of its entry or of `*`, else the lowest", () => {
    expect(parseAcceptEncoding('gzip')).toEqual({ br: 0, gzip: 1, identity: 0 });
    expect(parseAcceptEncoding('*;q=0.3, gzip;q=0.7')).toEqual({ br: 0.3, gzip: 0.7, identity: 0.3 });
    expect(parseAcceptEncoding('identity;q=0.2, *;q=0')).toEqual({ br: 0, gzip: 0, identity: 0.2 });
  });
});

describe('what is offered compressed', () => {
  it.each([
    ['text/html; charset=utf-8', true],
    ['application/json; charset=utf-8', true],
    ['text/csv; charset=utf-8', true],
    ['text/markdown; charset=utf-8', true],
    ['application/rss+xml; charset=utf-8', true],
    ['application/problem+json', true],
    ['image/svg+xml', true],
    ['text/plain', true],
    ['Text/HTML', true],
    ['image/png', false],
    ['image/jpeg', false],
    ['application/gzip', false],
    ['application/zip', false],
    ['application/octet-stream', false],
    ['font/woff2', false],
  ])('%s ⇒ %s', (type, expected) => {
    expect(compressibleType(type)).toBe(expected);
  });

  it(`needs ${COMPRESSIBLE_MIN_BYTES} bytes or more`, () => {
    expect(compressible('text/html', COMPRESSIBLE_MIN_BYTES - 1)).toBe(false);
    expect(compressible('text/html', COMPRESSIBLE_MIN_BYTES)).toBe(true);
    expect(compressible('image/png', 10_000_000)).toBe(false);
  });
});
