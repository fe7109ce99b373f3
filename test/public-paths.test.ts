import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalUrl, cardUrl, isPublicPath, manifestKey, normalizePublicPath, manifestKeyToPath, pageUrl, parseManifestKey, publicUrl, resolvePublicPath, urlPath, type PublicArtifact,
} from '../src/core/public-paths.js';
import { SLUGS } from '../src/stats/types.js';

const slug = fc.constantFrom(...SLUGS);
const month = fc
  .tuple(fc.integer({ min: 2000, max: 2099 }), fc.integer({ min: 1, max: 12 }))
  .map(([y, m]) => `${y}-${String(m).padStart(2, '0')}`);
const anchor = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,40}$/);

const publicKey = fc.oneof(
  slug.map((s) => `api/data/${s}.json`),
  fc.tuple(slug, month).map(([s, m]) => `api/data/${s}/${m}.json`),
  slug.map((s) => `api/data/${s}.csv`),
  slug.map((s) => `data/${s}.html`),
  slug.map((s) => `data/${s}.md`),
  fc.constant('data/rss.xml'),
  fc.constant('api/data/changes.json'),
  fc.tuple(slug, month, anchor).map(([s, m, a]) => `data/cards/${s}/${m}/${a}.png`),
);

describe('URL ↔ manifest key', () => {
  it('maps the documented URLs', () => {
    expect(resolvePublicPath('/api/data/agentic-commerce')).toEqual({ key: 'api/data/agentic-commerce.json' });
    expect(resolvePublicPath('/api/data/agentic-commerce/2025-01')).toEqual({ key: 'api/data/agentic-commerce/2025-01.json' });
    expect(resolvePublicPath('/api/data/agentic-commerce/csv')).toEqual({ key: 'api/data/agentic-commerce.csv' });
    expect(resolvePublicPath('/data/methodology')).toEqual({ key: 'data/methodology.html' });
    expect(resolvePublicPath('/data/methodology.md')).toEqual({ key: 'data/methodology.md' });
    expect(resolvePublicPath('/data/rss.xml')).toEqual({ key: 'data/rss.xml' });
    expect(resolvePublicPath('/api/data/changes')).toEqual({ key: 'api/data/changes.json' });
    expect(resolvePublicPath('/data/cards/platform-apps/2025-01/a-1b2c3d.png')).toEqual({
      key: 'data/cards/platform-apps/2025-01/a-1b2c3d.png',
    });
  });

  it('says why a public path names nothing', () => {
    expect(resolvePublicPath('/api/data/agentic-commerce/')).toEqual({ reason: 'trailing-slash' });
    expect(resolvePublicPath('/api/data/nope')).toEqual({ reason: 'unknown-slug' });
    expect(resolvePublicPath('/api/data/agentic-commerce/2025-13')).toEqual({ reason: 'malformed-month' });
    expect(resolvePublicPath('/data/cards/agentic-commerce/2025-1/a.png')).toEqual({ reason: 'malformed-month' });
    expect(resolvePublicPath('/data/agentic-commerce.html')).toEqual({ reason: 'unknown-slug' });
    expect(resolvePublicPath('/data/cards/agentic-commerce/2025-01/a.gif')).toEqual({ reason: 'no-such-path' });
  });

  it('round-trips every public manifest key through its URL', () => {
    fc.assert(
      fc.property(publicKey, (key) => {
        const url = manifestKeyToPath(key);
        expect(url).not.toBeNull();
        expect(resolvePublicPath(url!)).toEqual({ key });
      }),
    );
  });

  it('gives no URL to keys that are not public artifacts', () => {
    for (const key of ['manifest.json', 'api/data/x.json', 'data/agentic-commerce.json', 'data/cards/agentic-commerce/2025-01/../x.png', 'api/data/agentic-commerce/latest.json', 'api/data/changes/x.json', 'api/data/changes.csv', '.releases/current/manifest.json', 'data/cards/agentic-commerce/2025-01/%2e.png']) {
      expect(manifestKeyToPath(key), key).toBeNull();
    }
  });

  it('never resolves any path to a key with "..", an encoded character or a backslash', () => {
    const segment = fc.oneof(
      fc.constantFrom('..', '.', '', '%2e%2e', '..%2f', '%252e', 'rss.xml', 'cards', 'csv', '2025-01', 'agentic-commerce', 'agentic-commerce.md', 'a.png', '..\\x'),
      fc.string({ unit: fc.constantFrom('a', '.', '/', '%', '2', 'e', 'f', '\\', '-') , maxLength: 12 }),
    );
    const path = fc.tuple(fc.constantFrom('/data', '/api/data'), fc.array(segment, { maxLength: 5 })).map(([p, s]) => [p, ...s].join('/'));
    fc.assert(
      fc.property(path, (p) => {
        const r = resolvePublicPath(p);
        if ('key' in r) {
          expect(r.key.split('/')).not.toContain('..');
          expect(r.key).not.toMatch(/[%\\]/);
          expect(manifestKeyToPath(r.key)).toBe(p);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isPublicPath', () => {
  it('covers /data and /api/data and nothing that merely starts like them', () => {
    for (const p of ['/data', '/data/', '/data/x', '/api/data', '/api/data/x']) expect(isPublicPath(p), p).toBe(true);
    for (const p of ['/database', '/datax/y', '/api/datas', '/api/v1/data', '/', '', '/Data', '//database', '/api\\datas', '//', '/\\']) expect(isPublicPath(p), p).toBe(false);
  });

  it('covers a path that names a public prefix but for its slashes (it answers the public 404)', () => {
    for (const p of ['//data', '//data/rss.xml', '///api/data/x', '/api/data\\x', '/data\\x', '\\data/x', '/api\\data', '//releases.json', '/releases\\x']) expect(isPublicPath(p), p).toBe(true);
  });
});

describe('normalizePublicPath', () => {
  it('decodes a percent-encoded unreserved character, in either case, once, and no other escape', () => {
    expect(normalizePublicPath('/data/%72ss.xml')).toBe('/data/rss.xml');
    expect(normalizePublicPath('/%61pi/%64ata/a%2Db%2dc%5F%5f%7E%2E%30')).toBe('/api/data/a-b-c__~.0');
    expect(normalizePublicPath('/data/%2e%2e/%2E%2E/x')).toBe('/data/../../x');
    for (const p of ['/data%2frss.xml', '/data/%2F', '/data/x%00', '/data/%252e', '/data/%25', '/data/%20x', '/data/%C3%A9', '/data/%zz', '/data/%2', '/data/%']) expect(normalizePublicPath(p), p).toBe(p);
    expect(normalizePublicPath('/data/%25%37%32ss.xml')).toBe('/data/%2572ss.xml');
  });
});

const artifact: fc.Arbitrary<PublicArtifact> = fc.oneof(
  slug.map((s) => ({ kind: 'latest-json' as const, slug: s })),
  fc.tuple(slug, month).map(([s, m]) => ({ kind: 'month-json' as const, slug: s, month: m })),
  slug.map((s) => ({ kind: 'csv' as const, slug: s })),
  slug.map((s) => ({ kind: 'html' as const, slug: s })),
  slug.map((s) => ({ kind: 'markdown' as const, slug: s })),
  fc.constant({ kind: 'feed' as const }),
  fc.constant({ kind: 'changes' as const }),
  fc.tuple(slug, month, anchor).map(([s, m, a]) => ({ kind: 'card' as const, slug: s, month: m, anchor: a })),
);

describe('one artifact: manifest key, URL path, absolute URL', () => {
  it('names the same artifact by its key and by its URL path', () => {
    fc.assert(
      fc.property(artifact, (a) => {
        expect(parseManifestKey(manifestKey(a))).toEqual(a);
        expect(resolvePublicPath(urlPath(a))).toEqual({ key: manifestKey(a) });
        expect(manifestKeyToPath(manifestKey(a))).toBe(urlPath(a));
        expect(publicUrl('https://stats.example.com', a)).toBe(`https://stats.example.com${urlPath(a)}`);
      }),
    );
  });

  it('links pages, stats and cards with the URLs the spec documents', () => {
    const base = 'https://stats.example.com';
    expect(pageUrl(base, 'methodology')).toBe(`${base}/data/methodology`);
    expect(canonicalUrl(base, 'agentic-commerce', 'x-1a2b3c')).toBe(`${base}/data/agentic-commerce#x-1a2b3c`);
    expect(cardUrl(base, 'platform-apps', '2026-10', 'a-1')).toBe(`${base}/data/cards/platform-apps/2026-10/a-1.png`);
    expect(publicUrl(base, { kind: 'csv', slug: 'platform-trends' })).toBe(`${base}/api/data/platform-trends/csv`);
    expect(publicUrl(base, { kind: 'markdown', slug: 'platform-trends' })).toBe(`${base}/data/platform-trends.md`);
    expect(publicUrl(base, { kind: 'feed' })).toBe(`${base}/data/rss.xml`);
    expect(publicUrl(base, { kind: 'changes' })).toBe(`${base}/api/data/changes`);
  });
});
