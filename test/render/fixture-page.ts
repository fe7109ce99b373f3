/**
 * A small hand-built page for the renderer tests: hostile category names (`=cmd`, quotes,
 * commas, newlines, `|`, `<script>`, backslashes, markdown syntax, non-ASCII), suppressed
 * stats and deltas, country codes (one the runtime does not know), a first-month (null) delta, nulls in the trend series.
 */
import { createHash } from 'node:crypto';
import type { Delta, MetricKind, Slug, Stat } from '../../src/stats/types.js';
import { LICENSE, SCHEMA_VERSION } from '../../src/stats/types.js';
import type { MetricSection, PageModel } from '../../src/render/page.js';

export const BASE_URL = 'https://stats.example.com';
export const SLUG: Slug = 'agentic-commerce';
export const MONTH = '2026-10';

export const HOSTILE_CATEGORIES = [
  "=cmd|' /C calc'!A0",
  '"Quoted, with comma"',
  'multi\nline <script>alert(1)</script>',
  'Café & Crème — 日本 ✓',
  'back\\slash *bold* [link](http://x) `code` | pipe',
  '-1+2 @home &amp; </textarea>',
];

/** DESIGN.md: URL-safe slug of the id plus `-` and 6 hex chars of sha256(id). */
export function anchorOf(id: string): string {
  const slug = id.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `${slug || 'stat'}-${createHash('sha256').update(id).digest('hex').slice(0, 6)}`;
}

interface StatSpec {
  dimension: string;
  value: number | null;
  n: number | null;
  delta?: Partial<Delta> | null;
  sentence?: string;
}

function stat(metricKey: string, kind: MetricKind, definition: string, spec: StatSpec, month = MONTH): Stat {
  const id = `${metricKey}:${spec.dimension}`;
  const anchor = anchorOf(id);
  const suppressed = spec.value === null;
  const numerator = suppressed || spec.value === null || spec.n === null ? null : Math.round(spec.value * spec.n);
  // As publish writes them: a share's value is its numerator over n, rounded to four decimals.
  const share = (kind === 'share' || kind === 'rate') && numerator !== null && spec.n;
  const delta: Delta | null =
    spec.delta === null || spec.delta === undefined
      ? null
      : { value: null, cohort_n: null, suppressed: false, prior_month: '2026-09', ...spec.delta };
  return {
    id,
    metric_key: metricKey,
    dimension: spec.dimension,
    canonical_url: `${BASE_URL}/data/${SLUG}#${anchor}`,
    anchor,
    value: share ? Math.round((numerator / spec.n!) * 1e4) / 1e4 : spec.value,
    numerator,
    n: suppressed ? null : spec.n,
    null_rate: suppressed ? null : 0.05,
    suppressed,
    delta: suppressed && delta ? { ...delta, value: null, cohort_n: null, suppressed: true } : delta,
    definition,
    sentence: spec.sentence ?? `Figure for ${spec.dimension} in October 2026.`,
    citation: `storelens, "Agentic commerce readiness", ${BASE_URL}/data/${SLUG}#${anchor}, October 2026. CC BY 4.0.`,
    month,
    methodology_version: '2026.1',
  };
}

function section(
  metricKey: string,
  title: string,
  kind: MetricKind,
  unit: string,
  definition: string,
  specs: StatSpec[],
  series: MetricSection['series'],
): MetricSection {
  return {
    metric_key: metricKey,
    title,
    kind,
    unit,
    definition,
    methodology_version: '2026.1',
    stats: specs.map((s) => stat(metricKey, kind, definition, s)),
    series,
  };
}

export function categoryStats(categories: string[]): StatSpec[] {
  return categories.map((c, i) => ({
    dimension: `category:${c}`,
    value: i % 3 === 0 ? null : 0.1 + i / 20,
    n: 30 + i * 7,
    delta: i % 2 === 0 ? { value: -0.0123, cohort_n: 31 } : { suppressed: true },
    sentence: `${(10 + i * 5).toFixed(1)}% of stores in the category “${c}” had an llms.txt file in October 2026.`,
  }));
}

/** The fixture page; `categories` replaces the hostile names (property tests pass arbitrary ones). */
export function fixturePage(categories: string[] = HOSTILE_CATEGORIES): PageModel {
  const llmsDefinition = 'Share of active stores that serve an llms.txt file at the root of their domain.';
  const sections = [
    section('llms_txt', 'Stores with an llms.txt file', 'share', 'share', llmsDefinition, [
      { dimension: 'all', value: 0.4213, n: 12345, delta: { value: 0.012, cohort_n: 11800 }, sentence: '42.1% of stores had an llms.txt file in October 2026, up 1.2 points on September.' },
      { dimension: 'country:US', value: 0.5, n: 4000, delta: { value: -0.0031, cohort_n: 3900 } },
      { dimension: 'country:DE', value: 0.0004, n: 250, delta: { value: -0.00004, cohort_n: 240 } },
      ...categoryStats(categories),
    ], [
      { month: '2026-06', value: 0.3 },
      { month: '2026-07', value: null },
      { month: '2026-08', value: 0.35 },
      { month: '2026-09', value: 0.4093 },
      { month: '2026-10', value: 0.4213 },
    ]),
    section('revenue_mean', 'Average monthly revenue', 'mean', 'usd', 'Mean estimated monthly revenue in USD of stores with an estimate.', [
      { dimension: 'all', value: 1234.56, n: 9000, delta: { value: 12.3, cohort_n: 8800 } },
      { dimension: 'plan:plus', value: null, n: 12, delta: { suppressed: true } },
      { dimension: 'plan:basic', value: 310.5, n: 3100, delta: null },
    ], [{ month: '2026-10', value: 1234.56 }]),
    section('product_count_mean', 'Average product count', 'mean', 'products', 'Mean number of products listed per store.', [
      { dimension: 'all', value: 48.25, n: 12000, delta: { value: -0.25, cohort_n: 11000 } },
    ], [
      { month: '2026-08', value: null },
      { month: '2026-09', value: null },
      { month: '2026-10', value: null },
    ]),
    section('stores_count', 'Active stores', 'count', 'stores', 'Stores present in the panel this month.', [
      { dimension: 'all', value: 12345, n: 12345, delta: { value: -340, cohort_n: 12000 } },
      { dimension: 'country:AE', value: 48, n: 48, delta: { suppressed: true }, sentence: '48 stores in AE were active in October 2026.' },
      { dimension: 'country:AT', value: null, n: 12, delta: { suppressed: true } },
      { dimension: 'country:BE', value: null, n: 40, delta: { suppressed: true } },
      { dimension: 'country:QQ', value: null, n: 3, delta: { suppressed: true } },
      { dimension: 'country:US', value: 4100, n: 4100, delta: { value: 25, cohort_n: 4000 }, sentence: 'Stores in US: 4,100 were active in October 2026.' },
    ], [
      { month: '2026-09', value: 12685 },
      { month: '2026-10', value: 12345 },
    ]),
  ];
  return {
    slug: SLUG,
    title: 'Agentic commerce readiness',
    intro: 'How many stores are ready for AI shopping agents: llms.txt files, product schema, agent checkout.',
    baseUrl: BASE_URL,
    document: {
      schema_version: SCHEMA_VERSION,
      slug: SLUG,
      month: MONTH,
      completed_at: '2026-11-02T06:00:00.000Z',
      license: LICENSE,
      stats: sections.flatMap((s) => s.stats),
    },
    sections,
  };
}
