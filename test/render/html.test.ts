import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderEmbedSnippet } from '../../src/render/embed.js';
import { statForPeople } from '../../src/render/format.js';
import { renderHtml } from '../../src/render/html.js';
import { datasetJsonLd } from '../../src/render/jsonld.js';
import type { PageModel } from '../../src/render/page.js';
import { expectGolden } from '../helpers/golden.js';
import { fixturePage } from './fixture-page.js';

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function jsonLd(html: string): unknown {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}

function textareas(html: string): string[] {
  return [...html.matchAll(/<textarea [^>]*>([\s\S]*?)<\/textarea>/g)].map((m) => unescapeHtml(m[1]!));
}

/** The page with `evil` in every text that comes from data. */
function hostilePage(evil: string): PageModel {
  const page = fixturePage([evil, `${evil} 2`]);
  const sections = page.sections.map((s) => ({
    ...s,
    title: `${s.title} ${evil}`,
    definition: evil,
    methodology_version: evil,
    stats: s.stats.map((stat) => ({ ...stat, sentence: evil, citation: evil })),
  }));
  return { ...page, title: evil, intro: evil, sections, document: { ...page.document, license: evil, completed_at: evil } };
}

describe('renderHtml', () => {
  it('renders the fixture page as its golden file', () => {
    expectGolden('render/agentic-commerce.html', renderHtml(fixturePage()));
  });

  it('is an accessible document: lang, landmarks, headings, captions, scoped headers', () => {
    const page = fixturePage();
    const html = renderHtml(page);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    for (const tag of ['<header', '<main id="main"', '<footer', '<nav']) expect(html).toContain(tag);
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html.match(/<h2 id="metric-/g)).toHaveLength(page.sections.length);
    expect(html.match(/<caption /g)).toHaveLength(page.sections.length);
    expect(html.match(/<th scope="row">/g)).toHaveLength(page.document.stats.filter((s) => !s.suppressed).length);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html.match(/<svg class="trend" role="img" aria-labelledby="[^"]+-title"/g)).toHaveLength(page.sections.length);
    expect(html).not.toMatch(/<(link|script|img)[^>]+(src|href)="https?:\/\/[^"]+\.(css|js)"/);
  });

  it('gives every stat row its anchor as id and a copyable embed snippet', () => {
    const page = fixturePage();
    const html = renderHtml(page);
    const stats = page.sections.flatMap((s) => s.stats);
    for (const stat of stats) expect(html).toContain(stat.suppressed ? `<li id="${stat.anchor}">` : `<tr id="${stat.anchor}">`);
    expect(textareas(html)).toEqual(stats.map((stat) => renderEmbedSnippet({ baseUrl: page.baseUrl, slug: page.slug, stat: statForPeople(stat) })));
    expect(html.match(/<button type="button" data-copy="embed-code-/g)).toHaveLength(stats.length);
  });

  it('shows published rows only, and sums up the hidden cells in one line with the full list in a <details>', () => {
    const html = renderHtml(fixturePage());
    expect(html).not.toMatch(/<tr id="revenue-mean-plan-plus-/);
    expect(html).toContain('<details class="hidden-cells"><summary>3 countries not published, each with fewer than 30 stores or hidden to protect one that has: Austria, Belgium, QQ.</summary>');
    expect(html).toMatch(/<li id="stores-count-country-at-[0-9a-f]{6}"><a href="#embed-stores-count-country-at-[0-9a-f]{6}">Austria<\/a><\/li>/);
    const ae = /<tr id="stores-count-country-ae-[^"]+">(.*?)<\/tr>/.exec(html)![1]!;
    expect(ae).toContain('<th scope="row">Country: United Arab Emirates</th><td>48</td><td>48</td><td class="suppressed" title="too few stores in both months for a change');
    expect(html).toContain('<p>48 stores in the United Arab Emirates were active in October 2026.</p>');
    expect(html).toContain('Not published: fewer than 30 stores, or hidden to protect such a figure.');
    expect(html).not.toMatch(/suppressed \(|Country: (AE|US|DE)\b/);
  });

  it('describes the page as a schema.org Dataset with JSON and CSV distributions', () => {
    const page = fixturePage();
    const ld = jsonLd(renderHtml(page)) as Record<string, any>;
    expect(ld).toEqual(datasetJsonLd(page));
    expect(ld['@type']).toBe('Dataset');
    expect(ld.license).toBe('https://creativecommons.org/licenses/by/4.0/');
    expect(ld.creator).toMatchObject({ '@type': 'Organization', name: 'storelens' });
    expect(ld.temporalCoverage).toBe('2026-06/2026-10');
    expect(ld.distribution).toEqual([
      expect.objectContaining({ encodingFormat: 'application/json', contentUrl: 'https://stats.example.com/api/data/agentic-commerce' }),
      expect.objectContaining({ encodingFormat: 'text/csv', contentUrl: 'https://stats.example.com/api/data/agentic-commerce/csv' }),
    ]);
  });

  it('lets no raw "<" from data into the page, whatever the data', () => {
    const clean = renderHtml(hostilePage('x'));
    const count = (html: string, s: string) => html.split(s).length - 1;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }), (a, b) => {
        const evil = `${a}<evil </script></textarea></title><!--${b}`;
        const page = hostilePage(evil);
        const html = renderHtml(page);
        expect(html).not.toContain('<evil');
        expect(html).not.toContain('<!--');
        for (const tag of ['</script>', '</textarea>', '</title>', '<script', '<a ', '<tr']) {
          expect(count(html, tag), tag).toBe(count(clean, tag));
        }
        expect((jsonLd(html) as { name: string }).name).toBe(evil);
        const stats = page.sections.flatMap((s) => s.stats);
        expect(textareas(html)).toEqual(stats.map((stat) => renderEmbedSnippet({ baseUrl: page.baseUrl, slug: page.slug, stat })));
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same bytes for the same page', () => {
    expect(renderHtml(fixturePage())).toBe(renderHtml(fixturePage()));
  });
});
