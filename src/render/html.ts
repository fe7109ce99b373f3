/**
 * A statistics page as one self-contained HTML document (`/data/{slug}`): inline CSS, an inline
 * SVG trend per metric, a table per metric whose rows carry the stats' anchors, a copyable embed
 * snippet and citation per stat (naming the page's release, when it has one: cite.ts) and
 * schema.org Dataset JSON-LD. Pure: PageModel in, string out. Every piece
 * of data is HTML-escaped; JSON-LD is escaped for a script element.
 */
import { pageUrl, publicUrl } from '../core/public-paths.js';
import { FLOOR } from '../stats/floor.js';
import { LICENSE, PUBLISHER, type Stat } from '../stats/types.js';
import { releaseCitation, releaseDocumentUrl, releaseListUrl, releasePageUrl, releaseStatUrl } from './cite.js';
import { escapeHtml as e, jsonForScript } from './escape.js';
import { renderEmbedSnippet } from './embed.js';
import { breakdown, type Breakdown } from './breakdown.js';
import { changeHidden, dimensionLabel, formatMonth, HIDDEN_CHANGE_REASON, HIDDEN_REASON, statFigures, statForPeople } from './format.js';
import { PAGE_CSS, PAGE_SCRIPT } from './html-assets.js';
import { datasetJsonLd, LICENSE_URL } from './jsonld.js';
import type { MetricSection, PageModel } from './page.js';
import { renderTrendSvg } from './trend-svg.js';

/** A readable, unique HTML id for a metric section. */
function sectionIds(sections: MetricSection[]): string[] {
  const seen = new Map<string, number>();
  return sections.map((s) => {
    const base = 'metric-' + (s.metric_key.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'x');
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}-${count}`;
  });
}

function statRow(section: MetricSection, stat: Stat): string {
  const [value, n, change] = statFigures(stat, section);
  const hiddenChange = changeHidden(stat);
  return (
    `<tr id="${e(stat.anchor)}">` +
    `<th scope="row">${e(dimensionLabel(stat.dimension))}</th>` +
    `<td>${e(value)}</td><td>${e(n)}</td>` +
    (hiddenChange ? `<td class="suppressed" title="${e(HIDDEN_CHANGE_REASON)}">${e(change)}</td>` : `<td>${e(change)}</td>`) +
    `<td class="embed-link"><a href="#embed-${e(stat.anchor)}" aria-label="${e(`Embed code for ${dimensionLabel(stat.dimension)}`)}">Embed</a></td>` +
    '</tr>'
  );
}

function statTable(section: MetricSection, id: string, month: string): string {
  if (section.stats.length === 0) return '<p>No figures for this metric this month.</p>';
  const caption = `${section.title}, ${formatMonth(month)}, by dimension`;
  const b = breakdown(section.stats);
  const table = b.shown.length
    ? `<div class="table-wrap" role="region" aria-labelledby="${id}-caption" tabindex="0">` +
      `<table><caption id="${id}-caption">${e(caption)}</caption>` +
      '<thead><tr><th scope="col">Dimension</th><th scope="col">Value</th><th scope="col">Stores (n)</th>' +
      '<th scope="col">Change vs previous month</th><th scope="col"><span class="visually-hidden">Embed</span></th></tr></thead>' +
      `<tbody>${b.shown.map((s) => statRow(section, s)).join('')}</tbody></table></div>`
    : '<p>No figure of this metric is published this month.</p>';
  const changes = b.changesHidden ? `<p class="method">A change shown as “hidden”: ${e(HIDDEN_CHANGE_REASON)}.</p>` : '';
  return table + changes + hiddenCells(b);
}

/** The one line on the hidden cells of a table; the full list, each with its anchor, one click away. */
function hiddenCells(b: Breakdown): string {
  if (b.hidden.length === 0) return '';
  const groups = b.hidden
    .map(
      (g) =>
        (g.heading ? `<p class="hidden-heading">${e(g.heading)} (${g.items.length})</p>` : '') +
        '<ul class="hidden-list">' +
        g.items.map(({ stat, label }) => `<li id="${e(stat.anchor)}"><a href="#embed-${e(stat.anchor)}">${e(label)}</a></li>`).join('') +
        '</ul>',
    )
    .join('');
  return (
    `<details class="hidden-cells"><summary>${e(b.summary)}</summary>` +
    '<p>Which of the two is not said: that would tell a reader more about the small ones.</p>' +
    groups +
    '</details>'
  );
}

function embedBlock(page: PageModel, raw: Stat): string {
  const stat = statForPeople(raw);
  const codeId = `embed-code-${stat.anchor}`;
  const snippet = renderEmbedSnippet({ baseUrl: page.baseUrl, slug: page.slug, stat, release: page.release });
  return (
    `<div class="embed" id="embed-${e(stat.anchor)}">` +
    `<h3>${e(dimensionLabel(stat.dimension))}</h3>` +
    `<p>${e(stat.sentence)}</p>` +
    (stat.suppressed ? `<p class="method">Not published: ${e(HIDDEN_REASON)}.</p>` : '') +
    `<label for="${e(codeId)}">Embed code (card image, link and attribution)</label>` +
    `<textarea id="${e(codeId)}" readonly rows="4" spellcheck="false">${e(snippet)}</textarea>` +
    `<button type="button" data-copy="${e(codeId)}">Copy embed code</button>` +
    `<p class="cite">Cite: ${e(stat.citation)}</p>` +
    releaseCite(page, stat) +
    '</div>'
  );
}

/** The citation of the stat as the page's release published it, and that release's month document. */
function releaseCite(page: PageModel, stat: Stat): string {
  const { baseUrl, slug, release } = page;
  if (release === undefined) return '';
  const json = releaseDocumentUrl(baseUrl, slug, release, stat.month);
  return (
    `<p class="cite">Cite as published in release ${e(release)} (this URL never changes): ` +
    `${e(releaseCitation(stat, release, releaseStatUrl(baseUrl, slug, release, stat.anchor)))} ` +
    `Data: <a href="${e(json)}">${e(json)}</a></p>`
  );
}

/** The header's release, and the footer's line on it: both empty for a page that names none. */
function releaseLines(page: PageModel): { meta: string; footer: string } {
  const { baseUrl, slug, release } = page;
  if (release === undefined) return { meta: '', footer: '' };
  const url = releasePageUrl(baseUrl, slug, release);
  return {
    meta: ` · release <a href="${e(url)}">${e(release)}</a>`,
    footer:
      `<p>This page as published in release ${e(release)}, at a URL whose content never changes: <a href="${e(url)}">${e(url)}</a>. ` +
      `<a href="${e(releaseListUrl(baseUrl))}">Every release</a>.</p>`,
  };
}

function renderSection(page: PageModel, section: MetricSection, id: string): string {
  const trend = section.series.length
    ? `<figure class="trend">${renderTrendSvg({ id: `${id}-trend`, title: section.title, series: section.series, format: section })}` +
      `<figcaption>All stores, every published month.</figcaption></figure>`
    : '';
  const embeds = section.stats.length
    ? `<details class="embeds"><summary>Embed or cite these figures (${section.stats.length})</summary>` +
      section.stats.map((s) => embedBlock(page, s)).join('') +
      '</details>'
    : '';
  return (
    `<section class="metric" aria-labelledby="${id}-heading">` +
    `<h2 id="${id}-heading">${e(section.title)}</h2>` +
    `<p class="definition">${e(section.definition)}</p>` +
    trend +
    statTable(section, id, page.document.month) +
    `<p class="method">Methodology version ${e(section.methodology_version)}. ` +
    `Figures from fewer than ${FLOOR} stores are not published, nor those hidden to protect them.</p>` +
    embeds +
    '</section>'
  );
}

function toc(page: PageModel, ids: string[]): string {
  if (page.sections.length < 2) return '';
  const items = page.sections.map((s, i) => `<li><a href="#${ids[i]}-heading">${e(s.title)}</a></li>`).join('');
  return `<nav class="toc" aria-labelledby="toc-heading"><h2 id="toc-heading">On this page</h2><ul>${items}</ul></nav>`;
}

export function renderHtml(page: PageModel): string {
  const { baseUrl, slug, document: doc } = page;
  const url = pageUrl(baseUrl, slug);
  const month = formatMonth(doc.month);
  const ids = sectionIds(page.sections);
  const json = publicUrl(baseUrl, { kind: 'latest-json', slug });
  const csv = publicUrl(baseUrl, { kind: 'csv', slug });
  const markdown = publicUrl(baseUrl, { kind: 'markdown', slug });
  const rss = publicUrl(baseUrl, { kind: 'feed' });
  const release = releaseLines(page);
  const head = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(`${page.title} · ${month} · ${PUBLISHER}`)}</title>`,
    `<meta name="description" content="${e(page.intro)}">`,
    `<link rel="canonical" href="${e(url)}">`,
    `<link rel="alternate" type="text/markdown" href="${e(markdown)}">`,
    `<link rel="alternate" type="application/json" href="${e(json)}">`,
    `<link rel="alternate" type="text/csv" href="${e(csv)}">`,
    `<link rel="alternate" type="application/rss+xml" title="${e(`${PUBLISHER} statistics`)}" href="${e(rss)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${e(page.title)}">`,
    `<meta property="og:description" content="${e(page.intro)}">`,
    `<meta property="og:url" content="${e(url)}">`,
    `<style>${PAGE_CSS}</style>`,
    `<script type="application/ld+json">${jsonForScript(datasetJsonLd(page), 2)}</script>`,
    '</head>',
  ];
  const body = [
    '<body>',
    '<a class="skip" href="#main">Skip to the figures</a>',
    '<header class="site"><div class="wrap">',
    `<p class="brand">${e(PUBLISHER)} statistics</p>`,
    `<h1>${e(page.title)}</h1>`,
    `<p class="lede">${e(page.intro)}</p>`,
    `<p class="meta">Figures for <strong>${e(month)}</strong> · published <time datetime="${e(doc.completed_at)}">${e(doc.completed_at.slice(0, 10))}</time>${release.meta}</p>`,
    '<nav aria-label="Downloads"><ul>' +
      `<li><a href="${e(json)}">JSON</a></li><li><a href="${e(csv)}">CSV (all months)</a></li>` +
      `<li><a href="${e(markdown)}">Markdown</a></li><li><a href="${e(rss)}">RSS feed</a></li>` +
      `<li><a href="${e(pageUrl(baseUrl, 'methodology'))}">Methodology</a></li></ul></nav>`,
    toc(page, ids),
    '</div></header>',
    '<main id="main"><div class="wrap">',
    ...page.sections.map((s, i) => renderSection(page, s, ids[i]!)),
    '</div></main>',
    '<footer class="site"><div class="wrap">',
    `<p><a href="${LICENSE_URL}" rel="license">License</a>: ${e(doc.license || LICENSE)}</p>`,
    `<p>Attribution: <a href="${e(url)}">${e(`${PUBLISHER}, ${page.title}`)}</a>, ${e(month)}.</p>` + release.footer,
    '</div></footer>',
    '<div id="copy-status" class="visually-hidden" role="status" aria-live="polite"></div>',
    `<script>${PAGE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ];
  return [...head, ...body].join('\n');
}
