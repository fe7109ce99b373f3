/**
 * A statistics page as raw markdown (`/data/{slug}.md`): title, intro, one section per metric
 * with a GFM table of its dimension rows, its definition and methodology version, an anchor
 * per stat, the license line and an attribution link, and the release the page names (cite.ts),
 * when it names one. Pure: PageModel in, string out.
 */
import { pageUrl, publicUrl } from '../core/public-paths.js';
import { FLOOR } from '../stats/floor.js';
import { LICENSE, PUBLISHER } from '../stats/types.js';
import { releaseListUrl, releasePageUrl } from './cite.js';
import { escapeHtml, escapeMarkdownInline, escapeMarkdownParagraph, markdownCell, markdownHtmlLine } from './escape.js';
import { breakdown, type Breakdown } from './breakdown.js';
import { dimensionLabel, formatMonth, HIDDEN_CHANGE_REASON, statFigures } from './format.js';
import type { MetricSection, PageModel } from './page.js';

/** Characters that would end or split a markdown link destination, percent-encoded. */
function linkUrl(url: string): string {
  return url.replace(/[\s()<>\\]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

function link(text: string, url: string): string {
  return `[${escapeMarkdownInline(text)}](${linkUrl(url)})`;
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function sectionTable(section: MetricSection): string[] {
  if (section.stats.length === 0) return ['No figures for this metric this month.'];
  const b = breakdown(section.stats);
  const lines = b.shown.length
    ? [row(['Dimension', 'Value', 'Stores (n)', 'Change vs previous month']), row(['---', '---:', '---:', '---:'])]
    : ['No figure of this metric is published this month.'];
  for (const stat of b.shown) {
    const anchor = `<a id="${escapeHtml(stat.anchor)}"></a>`;
    lines.push(
      row([
        anchor + markdownCell(dimensionLabel(stat.dimension)),
        ...statFigures(stat, section).map((text) => markdownCell(text)),
      ]),
    );
  }
  if (b.changesHidden) lines.push('', `A change shown as “hidden”: ${escapeMarkdownInline(HIDDEN_CHANGE_REASON)}.`);
  return [...lines, ...hiddenCells(b)];
}

/** The one line on the hidden cells of a table, and the full list (each name with its anchor) one click away. */
function hiddenCells(b: Breakdown): string[] {
  if (b.hidden.length === 0) return [];
  return [
    '',
    `<details><summary>${markdownHtmlLine(b.summary)}</summary>`,
    '',
    ...b.hidden.flatMap((g) => [
      (g.heading ? `${escapeMarkdownInline(g.heading)}: ` : '') + g.items.map(({ stat, label }) => `<a id="${escapeHtml(stat.anchor)}"></a>${escapeMarkdownInline(label)}`).join(', ') + '.',
      '',
    ]),
    'Which of the two is not said: that would tell a reader more about the small ones.',
    '',
    '</details>',
  ];
}

/** The line naming the page's release; none for a page that names no release. */
function releaseLine({ baseUrl, slug, release }: PageModel): string[] {
  if (release === undefined) return [];
  const url = releasePageUrl(baseUrl, slug, release);
  return [
    `This page as published in release ${escapeMarkdownInline(release)}, at a URL whose content never changes: ${link(url, url)}. ` +
      `${link('Every release', releaseListUrl(baseUrl))}.`,
    '',
  ];
}

function renderSection(section: MetricSection): string[] {
  return [
    `## ${escapeMarkdownInline(section.title)}`,
    '',
    escapeMarkdownParagraph(section.definition),
    '',
    ...sectionTable(section),
    '',
    `Methodology version: ${escapeMarkdownInline(section.methodology_version)}.`,
    '',
  ];
}

export function renderMarkdown(page: PageModel): string {
  const { document: doc, baseUrl, slug } = page;
  const month = formatMonth(doc.month);
  const dataLinks = [
    link('JSON', publicUrl(baseUrl, { kind: 'latest-json', slug })),
    link('CSV', publicUrl(baseUrl, { kind: 'csv', slug })),
    link('HTML', pageUrl(baseUrl, slug)),
    link('RSS', publicUrl(baseUrl, { kind: 'feed' })),
  ].join(' · ');
  const lines = [
    `# ${escapeMarkdownInline(page.title)}`,
    '',
    escapeMarkdownParagraph(page.intro),
    '',
    `Figures for ${escapeMarkdownInline(month)}, published ${escapeMarkdownInline(doc.completed_at)}. ` +
      `Figures from fewer than ${FLOOR} stores are not published, nor those hidden to protect them. Data: ${dataLinks}.`,
    '',
    ...releaseLine(page),
    ...page.sections.flatMap(renderSection),
    '## License',
    '',
    escapeMarkdownParagraph(doc.license || LICENSE),
    '',
    `Attribution: ${link(`${PUBLISHER}, ${page.title}`, pageUrl(baseUrl, slug))}, ${escapeMarkdownInline(month)}.`,
    '',
  ];
  return lines.join('\n');
}
