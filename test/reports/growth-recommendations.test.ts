/**
 * A growth report's recommendation states its peer share as the statistics pages do: numerator
 * over n, rounded once. 25 of 31 stores is 80.645%, published 0.8065; read from that value it
 * said "80.7%" beside a cited sentence saying 80.6%.
 */
import { describe, expect, it } from 'vitest';
import type { StoreFeatures } from '../../src/ingest/index.js';
import { buildGrowthReport, growthReportMarkdown } from '../../src/reports/growth.js';
import { LICENSE, SCHEMA_VERSION, type Stat, type StatsDocument } from '../../src/stats/types.js';

const MONTH = '2026-10';

const stat: Stat = {
  id: 'llms_txt_share:all',
  metric_key: 'llms_txt_share',
  dimension: 'all',
  canonical_url: 'https://stats.example.com/data/agentic-commerce#llms-txt-share-all-143597',
  anchor: 'llms-txt-share-all-143597',
  value: 0.8065,
  numerator: 25,
  n: 31,
  null_rate: 0,
  suppressed: false,
  delta: null,
  definition: 'Share of stores, among those checked, that serve an llms.txt file.',
  sentence: 'In October 2026, 80.6% of stores served an llms.txt file.',
  citation: 'storelens, “Agentic commerce readiness: Stores with an llms.txt file” (stores), October 2026. Licensed CC BY 4.0.',
  month: MONTH,
  methodology_version: '1.0',
};
const doc: StatsDocument = { schema_version: SCHEMA_VERSION, slug: 'agentic-commerce', month: MONTH, completed_at: '2026-11-02T09:30:00.000Z', license: LICENSE, stats: [stat] };

const features = {
  month: MONTH, domain: 'shop.example', country: null, category: null, plan: null, created_month: null,
  product_count: null, monthly_visits: null, est_monthly_revenue_usd: null, apps: [], ads: [], agentic: [],
} as unknown as StoreFeatures;

describe('a growth report on a store without llms.txt, its peers 25 of 31 stores (0.8065)', () => {
  it('recommends it with the share the page shows, 80.6%', () => {
    const report = buildGrowthReport({ storeId: 's1', month: MONTH, features, documents: [doc], signals: [], evidence: [] });
    const rec = report.recommendations.find((r) => r.metric_key === 'llms_txt_share')!;
    expect(rec.text).toBe('80.6% of all stores in the panel already do this; this store does not: publish an llms.txt file so AI shopping agents can read the catalogue.');
  });
});

describe('a growth report on a store of a category and a country whose peers there mostly have llms.txt', () => {
  it('names the cell as the cited sentence does ("stores in the “toys” category", "stores in US"), not "category toys stores"', () => {
    const cell = (dimension: string): Stat => ({ ...stat, id: `llms_txt_share:${dimension}`, dimension });
    const cells: StatsDocument = { ...doc, stats: [cell('category:toys'), cell('country:US'), cell('plan:plus')] };
    const f = (k: 'category' | 'country' | 'plan', v: string) => ({ ...features, [k]: v }) as StoreFeatures;
    const text = (fe: StoreFeatures) => buildGrowthReport({ storeId: 's1', month: MONTH, features: fe, documents: [cells], signals: [], evidence: [] }).recommendations.find((r) => r.metric_key === 'llms_txt_share')!.text;
    expect(text(f('category', 'toys'))).toMatch(/^80\.6% of stores in the “toys” category already do this; /);
    expect(text(f('country', 'US'))).toMatch(/^80\.6% of stores in US already do this; /);
    expect(text(f('plan', 'plus'))).toMatch(/^80\.6% of stores on the plus plan already do this; /);
  });
});

/**
 * A growth report as markdown keeps each recommendation's citation usable: the figure's URL
 * stands as the page has it. Escaping the whole citation turned its anchor into `…commerce\#llms-…`,
 * which a reader copied (or an assistant followed) as a URL with a backslash: browsers read it
 * as `/data/agentic-commerce/#…`, a page that does not exist. The text around it, which may hold
 * a panel category's markup, stays escaped.
 */
const CATEGORY = 'toys *new* [x]';
const URL = 'https://stats.example.com/data/agentic-commerce#llms-txt-share-category-toys-new-x-1a2b3c';
const marked: Stat = {
  ...stat,
  id: `llms_txt_share:category:${CATEGORY}`,
  dimension: `category:${CATEGORY}`,
  canonical_url: URL,
  anchor: 'llms-txt-share-category-toys-new-x-1a2b3c',
  sentence: `In October 2026, 80.6% of stores in the “${CATEGORY}” category served an llms.txt file.`,
  citation: `storelens, “Agentic commerce readiness: Stores with an llms.txt file” (stores in the “${CATEGORY}” category), October 2026, ${URL}. Licensed CC BY 4.0.`,
};

describe('a growth report as markdown', () => {
  it("cites each recommendation's figure at its URL as published, the category's markup escaped around it", () => {
    const report = buildGrowthReport({ storeId: 's1', month: MONTH, features: { ...features, category: CATEGORY }, documents: [{ ...doc, stats: [marked] }], signals: [], evidence: [] });
    expect(report.recommendations.map((r) => r.citation)).toEqual([marked.citation]);
    const lines = growthReportMarkdown(report).split('\n');
    const start = lines.indexOf('## Recommendations');
    const rec = lines.slice(start + 1).find((l) => l.startsWith('- '))!;
    expect(rec).toContain(` ${URL}. Licensed CC BY 4.0.)`);
    expect(rec).toContain('(stores in the “toys \\*new\\* \\[x\\]” category)');
  });
});
