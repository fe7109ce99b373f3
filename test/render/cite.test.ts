/**
 * Citing a figure as a release published it (issue 24): a page that names its release offers,
 * besides the latest URLs, the release's URLs of the page and of the stat's month document in
 * its header, its footer, each stat's citation and each embed snippet; a page that names none
 * renders as before.
 */
import { describe, expect, it } from 'vitest';
import { releaseCitation, releaseDocumentUrl, releasePageUrl, releaseStatUrl } from '../../src/render/cite.js';
import { renderEmbedSnippet } from '../../src/render/embed.js';
import { renderHtml } from '../../src/render/html.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { BASE_URL, fixturePage, MONTH, SLUG } from './fixture-page.js';

const RELEASE = '20261102T093000000Z-a1b2c3';
const PAGE = `${BASE_URL}/releases/${RELEASE}/data/${SLUG}`;

describe('release URLs', () => {
  it('put the latest path of a page or month document under /releases/{id}', () => {
    expect(releasePageUrl(BASE_URL, SLUG, RELEASE)).toBe(PAGE);
    expect(releaseStatUrl(BASE_URL, SLUG, RELEASE, 'x-1')).toBe(`${PAGE}#x-1`);
    expect(releaseDocumentUrl(BASE_URL, SLUG, RELEASE, MONTH)).toBe(`${BASE_URL}/releases/${RELEASE}/api/data/${SLUG}/${MONTH}`);
  });

  it('cite a stat with its latest URL replaced by the release and its URL', () => {
    const stat = { canonical_url: `${BASE_URL}/data/${SLUG}#x-1`, citation: `storelens, “A: B” (all stores), October 2026, ${BASE_URL}/data/${SLUG}#x-1. Licensed CC BY 4.0.` };
    expect(releaseCitation(stat, RELEASE, `${PAGE}#x-1`)).toBe(`storelens, “A: B” (all stores), October 2026, release ${RELEASE}, ${PAGE}#x-1. Licensed CC BY 4.0.`);
    expect(releaseCitation({ ...stat, citation: 'storelens, A.' }, RELEASE, `${PAGE}#x-1`)).toBe(`storelens, A. As published in release ${RELEASE}, ${PAGE}#x-1.`);
  });
});

describe('a page that names its release', () => {
  const page = { ...fixturePage(), release: RELEASE };
  const stat = page.sections[0]!.stats[0]!;

  it('gives the embed snippet a link to the stat as the release published it, keeping the latest link', () => {
    const snippet = renderEmbedSnippet({ baseUrl: BASE_URL, slug: SLUG, stat, release: RELEASE });
    expect(snippet).toContain(`<a href="${stat.canonical_url}">storelens</a> · CC BY 4.0 · <a href="${PAGE}#${stat.anchor}">as published in release ${RELEASE}</a></p>`);
    expect(snippet.startsWith(`<a href="${stat.canonical_url}"><img `)).toBe(true);
  });

  it('names the release in the HTML header and footer, and cites each stat at the release URLs', () => {
    const html = renderHtml(page);
    expect(html).toContain(`· release <a href="${PAGE}">${RELEASE}</a></p>`);
    expect(html).toContain(`<p>This page as published in release ${RELEASE}, at a URL whose content never changes: <a href="${PAGE}">${PAGE}</a>.`);
    expect(html).toContain(`<a href="${BASE_URL}/releases.json">Every release</a>`);
    for (const s of page.sections.flatMap((x) => x.stats)) {
      expect(html).toContain(`, release ${RELEASE}, ${PAGE}#${s.anchor}, October 2026.`);
      const json = `${BASE_URL}/releases/${RELEASE}/api/data/${SLUG}/${s.month}`;
      expect(html).toContain(`Data: <a href="${json}">${json}</a>`);
      expect(html).toContain(`<p class="cite">Cite: ${s.citation.replace(/"/g, '&quot;')}</p>`);
    }
    expect(html).toContain(`as published in release ${RELEASE}&lt;/a&gt;&lt;/p&gt;</textarea>`);
  });

  it('names the release in the markdown page', () => {
    const md = renderMarkdown(page);
    expect(md).toContain(`This page as published in release ${RELEASE}, at a URL whose content never changes: [${PAGE}](${PAGE}).`);
    expect(md).toContain(`[Every release](${BASE_URL}/releases.json)`);
  });

  it('renders as before when the page names no release', () => {
    const page = fixturePage();
    for (const text of [renderHtml(page), renderMarkdown(page), renderEmbedSnippet({ baseUrl: BASE_URL, slug: SLUG, stat })]) {
      expect(text).not.toContain('/releases');
      expect(text).not.toContain('release ');
    }
  });
});
