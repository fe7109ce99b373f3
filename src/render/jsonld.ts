/**
 * schema.org `Dataset` description of a page, for search engines and dataset catalogues:
 * the JSON and CSV distributions, license, creator and temporal coverage.
 */
import { pageUrl, publicUrl } from '../core/public-paths.js';
import { FLOOR } from '../stats/floor.js';
import { PUBLISHER } from '../stats/types.js';
import { formatMonth } from './format.js';
import type { PageModel } from './page.js';

export const LICENSE_URL = 'https://creativecommons.org/licenses/by/4.0/';

/** `first/last` month over every series of the page (ISO 8601 interval), or the page's month. */
export function temporalCoverage(page: PageModel): string {
  const months = page.sections.flatMap((s) => s.series.map((p) => p.month));
  months.push(page.document.month);
  const sorted = [...new Set(months)].sort();
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  return first === last ? first : `${first}/${last}`;
}

export function datasetJsonLd(page: PageModel): Record<string, unknown> {
  const { baseUrl, slug, document: doc } = page;
  const url = pageUrl(baseUrl, slug);
  const organization = { '@type': 'Organization', name: PUBLISHER, url: baseUrl };
  const versions = [...new Set(page.sections.map((s) => s.methodology_version))].sort();
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    '@id': url,
    name: page.title,
    description: `${page.intro} Latest figures: ${formatMonth(doc.month)}. Figures from fewer than ${FLOOR} stores are suppressed.`,
    url,
    license: LICENSE_URL,
    isAccessibleForFree: true,
    creator: organization,
    publisher: organization,
    temporalCoverage: temporalCoverage(page),
    dateModified: doc.completed_at,
    ...(versions.length > 0 ? { version: versions.join(', ') } : {}),
    variableMeasured: page.sections.map((s) => ({
      '@type': 'PropertyValue',
      name: s.title,
      description: s.definition,
    })),
    distribution: [
      {
        '@type': 'DataDownload',
        name: `${page.title} (JSON, latest month)`,
        encodingFormat: 'application/json',
        contentUrl: publicUrl(baseUrl, { kind: 'latest-json', slug }),
      },
      {
        '@type': 'DataDownload',
        name: `${page.title} (CSV, full monthly series)`,
        encodingFormat: 'text/csv',
        contentUrl: publicUrl(baseUrl, { kind: 'csv', slug }),
      },
    ],
  };
}
