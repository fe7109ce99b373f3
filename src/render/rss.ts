/**
 * The RSS 2.0 feed (`/data/rss.xml`) via `feed`: one item per monthly release and one per
 * correction of a past month. Deterministic: items sorted newest first, `lastBuildDate` is the
 * newest item's completion time (never "now"), so equal input gives equal bytes (and ETag).
 */
import { Feed } from 'feed';
import { isMonth } from '../core/month.js';
import { pageUrl, publicUrl } from '../core/public-paths.js';
import { LICENSE, PUBLISHER, type Slug } from '../stats/types.js';
import { escapeHtml } from './escape.js';
import { countryName, formatMonth } from './format.js';
import type { FeedItem } from './page.js';

export interface FeedOptions {
  /** e.g. "https://stats.example.com", no trailing slash. */
  baseUrl: string;
  items: FeedItem[];
  /** Channel title; default "storelens statistics". */
  title?: string;
  /** Human page titles for the links; the slug is shown where one is missing. */
  pageTitles?: Partial<Record<Slug, string>>;
}

/** lastBuildDate of a feed without items: a fixed instant, so the bytes stay stable. */
const EMPTY_FEED_DATE = new Date(0);

function parseTime(item: FeedItem): Date {
  const date = new Date(item.completed_at);
  if (Number.isNaN(date.getTime())) {
    throw new Error(`feed item ${item.guid}: completed_at is not a timestamp: ${JSON.stringify(item.completed_at)}`);
  }
  return date;
}

function checkMonth(item: FeedItem): string {
  if (!isMonth(item.month)) {
    throw new Error(`feed item ${item.guid}: month is not YYYY-MM: ${JSON.stringify(item.month)}`);
  }
  return formatMonth(item.month);
}

/**
 * Newest first. Items of one run share their time (a first publish of a year releases twelve
 * months at once), so those come newest month first, then by guid, so the order never depends
 * on the input order.
 */
function newestFirst(items: FeedItem[]): FeedItem[] {
  return [...items].sort((a, b) => {
    const byTime = parseTime(b).getTime() - parseTime(a).getTime();
    if (byTime !== 0) return byTime;
    if (a.month !== b.month) return a.month < b.month ? 1 : -1;
    return a.guid < b.guid ? -1 : a.guid > b.guid ? 1 : 0;
  });
}

function slugLink(opts: FeedOptions, slug: Slug): string {
  const title = opts.pageTitles?.[slug] ?? slug;
  return `<a href="${escapeHtml(pageUrl(opts.baseUrl, slug))}">${escapeHtml(title)}</a>`;
}

/** A changed stat's id, with the country's name after it where it names a country: "m:country:AE (United Arab Emirates)". */
function idForPeople(id: string): string {
  const at = id.indexOf(':country:');
  if (at < 0) return id;
  const code = id.slice(at + ':country:'.length);
  const name = countryName(code);
  return name === code ? id : `${id} (${name})`;
}

function itemTitle(item: FeedItem): string {
  const month = checkMonth(item);
  return item.kind === 'release' ? `Statistics for ${month} released` : `Correction: statistics for ${month} revised`;
}

/** HTML description; everything escaped, so `]]>` can never end the CDATA section early. */
function itemDescription(opts: FeedOptions, item: FeedItem): string {
  const month = escapeHtml(formatMonth(item.month));
  if (item.kind === 'release') {
    const links = item.slugs.map((s) => `<li>${slugLink(opts, s)}</li>`).join('');
    return `<p>New monthly figures for ${month} are published on ${item.slugs.length} page${item.slugs.length === 1 ? '' : 's'}:</p><ul>${links}</ul>`;
  }
  const parts = item.slugs.map((slug) => {
    const ids = [...(item.changed?.[slug] ?? [])].sort();
    const list = ids.length
      ? `: ${ids.length} stat${ids.length === 1 ? '' : 's'} changed<ul>${ids.map((id) => `<li>${escapeHtml(idForPeople(id))}</li>`).join('')}</ul>`
      : '';
    return `<li>${slugLink(opts, slug)}${list}</li>`;
  });
  const changes = item.changes
    ? `<p>Every changed figure, as published before and after: <a href="${escapeHtml(opts.baseUrl + item.changes)}">the change list of this release</a>.</p>`
    : '';
  return `<p>The figures for ${month} were corrected. Changed pages and stats:</p><ul>${parts.join('')}</ul>${changes}`;
}

export function renderFeed(opts: FeedOptions): string {
  const items = newestFirst(opts.items);
  const newest = items[0];
  const feed = new Feed({
    id: publicUrl(opts.baseUrl, { kind: 'feed' }),
    title: opts.title ?? `${PUBLISHER} statistics`,
    description: 'Monthly public e-commerce statistics: each release and each correction of a past month.',
    link: opts.baseUrl + '/',
    language: 'en',
    copyright: LICENSE,
    generator: PUBLISHER,
    feedLinks: { rss: publicUrl(opts.baseUrl, { kind: 'feed' }) },
    updated: newest ? parseTime(newest) : EMPTY_FEED_DATE,
  });
  for (const item of items) {
    const first = item.slugs[0];
    feed.addItem({
      title: itemTitle(item),
      id: item.guid,
      guid: item.guid,
      link: first ? pageUrl(opts.baseUrl, first) : opts.baseUrl + '/',
      date: parseTime(item),
      description: itemDescription(opts, item),
    });
  }
  return feed.rss2();
}
