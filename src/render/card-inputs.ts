/**
 * The cards of a page: one per stat of its month (DESIGN.md "Decisions" → Cards), built from
 * the same PageModel the markdown and HTML renderers read, so every artifact agrees.
 */
import { pageUrl } from '../core/public-paths.js';
import { PUBLISHER } from '../stats/types.js';
import { changeLine, dimensionLabel, formatValue, shownValue, textForPeople } from './format.js';
import type { CardInput, PageModel } from './page.js';

/** "storelens · stats.example.com/data/agentic-commerce · CC BY 4.0" */
export function cardAttribution(page: Pick<PageModel, 'baseUrl' | 'slug'>): string {
  const url = pageUrl(page.baseUrl, page.slug).replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  return `${PUBLISHER} · ${url} · CC BY 4.0`;
}

export function pageCardInputs(page: PageModel): CardInput[] {
  const attribution = cardAttribution(page);
  return page.sections.flatMap((section) =>
    section.stats.map((stat): CardInput => {
      const changeText = changeLine(stat, section);
      return {
        slug: page.slug,
        pageTitle: page.title,
        month: stat.month,
        anchor: stat.anchor,
        valueText: stat.suppressed || stat.value === null ? null : formatValue(shownValue(stat, section.kind)!, section),
        sentence: textForPeople(stat.sentence, stat.dimension),
        n: stat.suppressed ? null : stat.n,
        suppressed: stat.suppressed,
        attribution,
        metricTitle: section.title,
        dimensionLabel: dimensionLabel(stat.dimension),
        ...(changeText === undefined ? {} : { changeText }),
      };
    }),
  );
}
