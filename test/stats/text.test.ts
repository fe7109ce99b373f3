/**
 * Ids, anchors and texts of stats (src/stats/text.ts): anchors are URL-safe and never shared by
 * two ids, even for names that slug the same.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchorOf, dimensionString, scopeText, statId } from '../../src/stats/text.js';

const URL_SAFE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** The first 6 hex characters of the SHA-256 of an id. */
const idHash = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 6);

describe('anchorOf', () => {
  it('is URL-safe for any id: lowercase letters, digits and single inner hyphens', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (id) => {
        const anchor = anchorOf(id);
        expect(anchor).toMatch(URL_SAFE);
        expect(encodeURIComponent(anchor)).toBe(anchor);
      }),
      { numRuns: 500 },
    );
  });

  it('ends with 6 hex characters of the id hash and stays short', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (id) => {
        const anchor = anchorOf(id);
        expect(anchor).toMatch(/-[0-9a-f]{6}$/);
        expect(anchor.length).toBeLessThanOrEqual(80 + 7);
      }),
    );
  });

  it('is stable: the same id always gives the same anchor', () => {
    expect(anchorOf('active_stores:all')).toBe('active-stores-all-c55b3c');
    expect(anchorOf('active_stores:country:AE')).toBe(anchorOf('active_stores:country:AE'));
  });

  it('gives distinct anchors to category names that slug the same', () => {
    const names = ['Café & Thé', 'Cafe & The', 'café & thé', 'CAFE-THE', 'Cafe\nThe', '=Cafe+The', 'Café & Thé'.normalize('NFD'), ' Cafe The '];
    const ids = names.map((n) => statId('active_stores', dimensionString('category', n)));
    const anchors = ids.map(anchorOf);
    expect(new Set(anchors.map((a) => a.slice(0, -7))).size).toBe(1);
    expect(new Set(anchors).size).toBe(names.length);
  });

  it('gives distinct anchors to distinct ids that differ only in case, accents or punctuation', () => {
    const variants = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }).chain((base) =>
      fc.constantFrom(base.toUpperCase(), base.toLowerCase(), `${base}!`, `-${base}`, `${base} `, base.replace(/e/g, 'é')).map((v) => [base, v] as const),
    );
    fc.assert(
      fc.property(variants, ([a, b]) => {
        fc.pre(a !== b);
        const ids = [`m:category:${a}`, `m:category:${b}`];
        const anchors = ids.map(anchorOf);
        expect(anchors.map((x) => x.slice(-6))).toEqual(ids.map(idHash));
        expect(anchors[0]).not.toBe(anchors[1]);
      }),
    );
  });

  it('names an id with nothing sluggable "stat"', () => {
    expect(anchorOf('***')).toMatch(/^stat-[0-9a-f]{6}$/);
  });
});

describe('dimension strings and scopes', () => {
  it('writes `all` or `{name}:{value}` with the value as it is', () => {
    expect(dimensionString(null, null)).toBe('all');
    expect(dimensionString('category', '=HYPERLINK("x")')).toBe('category:=HYPERLINK("x")');
  });

  it('reads a scope as words, with line breaks in a value collapsed', () => {
    expect(scopeText(null, null)).toBe('stores');
    expect(scopeText('country', 'US')).toBe('stores in US');
    expect(scopeText('category', 'Vintage\nCollectibles')).toBe('stores in the “Vintage Collectibles” category');
    expect(scopeText('plan', 'plus')).toBe('stores on the plus plan');
    expect(scopeText('app', 'klaviyo')).toBe('stores running klaviyo');
  });
});
