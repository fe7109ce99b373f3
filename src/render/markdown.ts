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
import { escapeHtml, escapeMarkdownInline, escapeMarkdownParagraph, markdownCell } from './escape.js';
import { dimensionLabel, formatMonth, statFigures } from './format.js';
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
  const lines = [
    row(['Dimension', 'Value', 'Stores (n)', 'Change vs previous month']),
    row(['---', '---:', '---:', '---:']),
  ];
  for (const stat of section.stats) {
    const anchor = `<a id="${escapeHtml(stat.anchor)}"></a>`;
    lines.push(
      row([
        anchor + markdownCell(dimensionLabel(stat.dimension)),
        ...statFigures(stat, section).map((text) => markdownCell(text)),
      ]),
    );
  }
  return lines;
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
      `Stats from fewer than ${FLOOR} stores are suppressed. Data: ${dataLinks}.`,
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
