/**
 * A growth report as markdown keeps each recommendation's citation usable: the figure's URL
 * stands as the page has it. Escaping the whole citation turned its anchor into `…commerce\#llms-…`,
 * which a reader copied (or an assistant followed) as a URL with a backslash: browsers read it
 * as `/data/agentic-commerce/#…`, a page that does not exist. The text around it, which may hold
 * a panel category's markup, stays escaped.
 */
import { describe, expect, it } from 'vitest';
import type { StoreFeatures } from '../../src/ingest/index.js';
import { buildGrowthReport, growthReportMarkdown } from '../../src/reports/growth.js';
import { LICENSE, SCHEMA_VERSION, type Stat, type StatsDocument } from '../../src/stats/types.js';

const MONTH = '2026-10';
const CATEGORY = 'toys *new* [x]';
const URL = 'https://stats.example.com/data/agentic-commerce#llms-txt-share-category-toys-new-x-1a2b3c';

const stat: Stat = {
  id: `llms_txt_share:category:${CATEGORY}`,
  metric_key: 'llms_txt_share',
  dimension: `category:${CATEGORY}`,
  canonical_url: URL,
  anchor: 'llms-txt-share-category-toys-new-x-1a2b3c',
  value: 0.8065,
  numerator: 25,
  n: 31,
  null_rate: 0,
  suppressed: false,
  delta: null,
  definition: 'Share of stores, among those checked, that serve an llms.txt file.',
  sentence: `In October 2026, 80.6% of stores in the “${CATEGORY}” category served an llms.txt file.`,
  citation: `storelens, “Agentic commerce readiness: Stores with an llms.txt file” (stores in the “${CATEGORY}” category), October 2026, ${URL}. Licensed CC BY 4.0.`,
  month: MONTH,
  methodology_version: '1.0',
};
const doc: StatsDocument = { schema_version: SCHEMA_VERSION, slug: 'agentic-commerce', month: MONTH, completed_at: '2026-11-02T09:30:00.000Z', license: LICENSE, stats: [stat] };

const features = {
  month: MONTH, domain: 'shop.example', country: null, category: CATEGORY, plan: null, created_month: null,
  product_count: null, monthly_visits: null, est_monthly_revenue_usd: null, apps: [], ads: [], agentic: [],
} as unknown as StoreFeatures;

describe('a growth report as markdown', () => {
  it("cites each recommendation's figure at its URL as published, the category's markup escaped around it", () => {
    const report = buildGrowthReport({ storeId: 's1', month: MONTH, features, documents: [doc], signals: [], evidence: [] });
    expect(report.recommendations.map((r) => r.citation)).toEqual([stat.citation]);
    const lines = growthReportMarkdown(report).split('\n');
    const start = lines.indexOf('## Recommendations');
    const rec = lines.slice(start + 1).find((l) => l.startsWith('- '))!;
    expect(rec).toContain(` ${URL}. Licensed CC BY 4.0.)`);
    expect(rec).toContain('(stores in the “toys \\*new\\* \\[x\\]” category)');
  });
});
