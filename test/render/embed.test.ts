import { describe, expect, it } from 'vitest';
import { cardUrl, manifestKey } from '../../src/core/public-paths.js';
import { renderEmbedSnippet } from '../../src/render/embed.js';
import { BASE_URL, fixturePage, SLUG } from './fixture-page.js';

describe('renderEmbedSnippet', () => {
  it('links the month-pinned card image to the stat and adds the attribution and license', () => {
    const stat = fixturePage().sections[0]!.stats[0]!;
    const snippet = renderEmbedSnippet({ baseUrl: BASE_URL, slug: SLUG, stat });
    expect(snippet).toBe(
      `<a href="${stat.canonical_url}"><img src="${BASE_URL}/data/cards/${SLUG}/2026-10/${stat.anchor}.png" ` +
        `width="1200" height="630" alt="42.1% of stores had an llms.txt file in October 2026, up 1.2 points on September."></a>\n` +
        `<p>Source: <a href="${stat.canonical_url}">storelens</a> · CC BY 4.0</p>`,
    );
  });

  it('escapes the sentence and URLs', () => {
    const stat = fixturePage().sections[0]!.stats.find((s) => s.dimension.includes('<script>'))!;
    const snippet = renderEmbedSnippet({ baseUrl: 'https://x.example/a?b=1&c="2"', slug: SLUG, stat });
    expect(snippet).toContain('alt="20.0% of stores in the category “multi\nline &lt;script&gt;alert(1)&lt;/script&gt;”');
    expect(snippet).toContain('src="https://x.example/a?b=1&amp;c=&quot;2&quot;/data/cards/');
    expect(snippet).not.toContain('<script');
  });

  it('puts cards at data/cards/{slug}/{month}/{anchor}.png', () => {
    expect(manifestKey({ kind: 'card', slug: SLUG, month: '2026-10', anchor: 'a-1' })).toBe('data/cards/agentic-commerce/2026-10/a-1.png');
    expect(cardUrl(BASE_URL, SLUG, '2026-10', 'a-1')).toBe(`${BASE_URL}/data/cards/agentic-commerce/2026-10/a-1.png`);
  });
});
