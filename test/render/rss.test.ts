import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../src/render/page.js';
import { renderFeed } from '../../src/render/rss.js';

const BASE = 'https://stats.example.com';
const ALL = ['platform-stores', 'agentic-commerce', 'platform-apps', 'platform-advertising', 'platform-trends', 'methodology'] as const;

const items: FeedItem[] = [
  { kind: 'release', month: '2026-09', completed_at: '2026-10-02T06:00:00.000Z', guid: 'release:2026-09', slugs: [...ALL] },
  { kind: 'release', month: '2026-10', completed_at: '2026-11-02T06:00:00.000Z', guid: 'release:2026-10', slugs: [...ALL] },
  {
    kind: 'correction',
    month: '2026-09',
    completed_at: '2026-11-05T09:30:00.000Z',
    guid: 'correction:2026-09:0123456789abcdef',
    slugs: ['agentic-commerce', 'platform-stores'],
    changed: {
      'agentic-commerce': ['llms_txt:category:=cmd <b>]]></b>', 'llms_txt:all'],
      'platform-stores': ['stores_count:all'],
    },
  },
];

async function parse(xml: string) {
  return new Parser().parseString(xml);
}

describe('renderFeed', () => {
  it('lists releases and corrections newest first with titles, links, guids and pubDates', async () => {
    const feed = await parse(renderFeed({ baseUrl: BASE, items }));
    expect(feed.title).toBe('storelens statistics');
    expect(feed.items.map((i) => i.guid)).toEqual(['correction:2026-09:0123456789abcdef', 'release:2026-10', 'release:2026-09']);
    expect(feed.items.map((i) => i.title)).toEqual([
      'Correction: statistics for September 2026 revised',
      'Statistics for October 2026 released',
      'Statistics for September 2026 released',
    ]);
    expect(feed.items.map((i) => i.isoDate)).toEqual(['2026-11-05T09:30:00.000Z', '2026-11-02T06:00:00.000Z', '2026-10-02T06:00:00.000Z']);
    expect(feed.items[1]!.pubDate).toBe('Mon, 02 Nov 2026 06:00:00 GMT');
    expect(feed.items[1]!.link).toBe(`${BASE}/data/platform-stores`);
  });

  it('lists the months one run published (one time) newest month first', async () => {
    const at = '2026-11-02T06:00:00.000Z';
    const run: FeedItem[] = ['2026-01', '2026-02', '2026-03'].map((month) => ({ kind: 'release', month, completed_at: at, guid: `release:${month}`, slugs: [...ALL] }));
    run.push({ kind: 'correction', month: '2025-12', completed_at: at, guid: `correction:2025-12:${at}`, slugs: ['platform-stores'] });
    const feed = await parse(renderFeed({ baseUrl: BASE, items: run }));
    expect(feed.items.map((i) => i.guid)).toEqual(['release:2026-03', 'release:2026-02', 'release:2026-01', `correction:2025-12:${at}`]);
  });

  it('links every slug page from a release', async () => {
    const feed = await parse(renderFeed({ baseUrl: BASE, items, pageTitles: { 'agentic-commerce': 'Agentic commerce readiness' } }));
    const release = feed.items.find((i) => i.guid === 'release:2026-10')!;
    for (const slug of ALL) expect(release.content).toContain(`href="${BASE}/data/${slug}"`);
    expect(release.content).toContain('>Agentic commerce readiness</a>');
  });

  it('says which slugs and stats a correction changed, escaped', async () => {
    const xml = renderFeed({ baseUrl: BASE, items });
    const feed = await parse(xml);
    const correction = feed.items[0]!;
    expect(correction.content).toContain(`href="${BASE}/data/agentic-commerce"`);
    expect(correction.content).toContain(`href="${BASE}/data/platform-stores"`);
    expect(correction.content).toContain('<li>llms_txt:all</li>');
    expect(correction.content).toContain('<li>llms_txt:category:=cmd &lt;b&gt;]]&gt;&lt;/b&gt;</li>');
    expect(correction.content).toContain('2 stats changed');
  });

  it('names the country of a changed stat beside its id, and leaves an unknown code as it is', async () => {
    const correction: FeedItem = {
      kind: 'correction', month: '2026-09', completed_at: '2026-11-05T09:30:00.000Z', guid: 'correction:2026-09:x', slugs: ['platform-stores'],
      changed: { 'platform-stores': ['stores_count:country:AE', 'stores_count:country:QQ', 'stores_count:plan:US'] },
    };
    const feed = await parse(renderFeed({ baseUrl: BASE, items: [correction] }));
    expect(feed.items[0]!.content).toContain('<li>stores_count:country:AE (United Arab Emirates)</li><li>stores_count:country:QQ</li><li>stores_count:plan:US</li>');
  });

  it('sets lastBuildDate to the newest item, so equal input gives equal bytes', () => {
    const xml = renderFeed({ baseUrl: BASE, items });
    expect(xml).toContain('<lastBuildDate>Thu, 05 Nov 2026 09:30:00 GMT</lastBuildDate>');
    expect(renderFeed({ baseUrl: BASE, items: [...items].reverse() })).toBe(xml);
    expect(renderFeed({ baseUrl: BASE, items: [] })).toContain('<lastBuildDate>Thu, 01 Jan 1970 00:00:00 GMT</lastBuildDate>');
  });

  it('is RSS 2.0 with a self link', () => {
    const xml = renderFeed({ baseUrl: BASE, items, title: 'Custom' });
    expect(xml).toMatch(/<rss version="2\.0"/);
    expect(xml).toContain(`<atom:link href="${BASE}/data/rss.xml" rel="self" type="application/rss+xml"/>`);
    expect(xml).toContain('<title>Custom</title>');
  });

  it('refuses an item whose completed_at is not a timestamp', () => {
    expect(() => renderFeed({ baseUrl: BASE, items: [{ ...items[0]!, completed_at: 'soon' }] })).toThrow(/completed_at/);
  });
});
