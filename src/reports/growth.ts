/**
 * A growth report, pure: a store compared with its peers from the published statistics of one
 * month (its country, category and plan cells and the whole panel; unsuppressed figures only,
 * each with its citation), its signals and evidence from the accounts model, and plain-words
 * recommendations; rendered as JSON and as markdown. A report is about its month: the store's
 * features, its cells, its signals and the recommendations are those of that month (or earlier,
 * for signals), never of a later one; a store absent from the month's panel has no features
 * (`store: null`, said so in the markdown), only the whole panel as peers and no recommendation.
 */
import type { StoreFeatures } from '../ingest/index.js';
import { shownValue } from '../stats/format.js';
import { scopeText } from '../stats/text.js';
import type { Stat, StatsDocument } from '../stats/types.js';

/** Pages a report compares against (methodology describes the panel, not stores). */
export const REPORT_SLUGS = ['platform-stores', 'agentic-commerce', 'platform-advertising', 'platform-apps', 'platform-trends'] as const;

export interface PeerFigure {
  slug: string;
  metric_key: string;
  dimension: string;
  value: number;
  n: number;
  month: string;
  sentence: string;
  citation: string;
  canonical_url: string;
}

export interface ReportSignal {
  type: string;
  month: string;
  detail: string;
  strength: number;
}

export interface ReportEvidence {
  kind: string;
  key: string;
  detail: string;
  contribution: number;
}

export interface Recommendation {
  text: string;
  /** The figure it rests on. */
  metric_key: string;
  dimension: string;
  citation: string;
}

export interface GrowthReportContent {
  store_id: string;
  month: string;
  store: { domain: string | null; country: string | null; category: string | null; plan: string | null; monthly_visits: number | null; est_monthly_revenue_usd: number | null; product_count: number | null; apps: string[]; ads: string[]; agentic: string[] } | null;
  peers: PeerFigure[];
  signals: ReportSignal[];
  evidence: ReportEvidence[];
  recommendations: Recommendation[];
}

export interface ReportInput {
  storeId: string;
  month: string;
  /** The store's features in `month`; null when the month's panel has no row of the store. Features of another month count as none. */
  features: StoreFeatures | null;
  documents: readonly StatsDocument[];
  signals: readonly ReportSignal[];
  evidence: readonly ReportEvidence[];
}

/** The cells a store belongs to, most specific first, then the whole panel. */
export function peerDimensions(f: StoreFeatures | null): string[] {
  const dims: string[] = [];
  if (f?.category) dims.push(`category:${f.category}`);
  if (f?.country) dims.push(`country:${f.country}`);
  if (f?.plan) dims.push(`plan:${f.plan}`);
  dims.push('all');
  return dims;
}

const published = (s: Stat): s is Stat & { value: number; n: number } => !s.suppressed && s.value !== null && s.n !== null;

/** What the store has that a share metric counts (undefined: the report cannot tell). */
const FEATURE_OF: Record<string, { has: (f: StoreFeatures) => boolean; action: string }> = {
  llms_txt_share: { has: (f) => f.agentic.includes('llms_txt'), action: 'publish an llms.txt file so AI shopping agents can read the catalogue' },
  product_schema_share: { has: (f) => f.agentic.includes('product_schema'), action: 'add schema.org Product data to product pages' },
  agent_checkout_share: { has: (f) => f.agentic.includes('agent_checkout'), action: 'let AI agents complete checkout' },
  mcp_server_share: { has: (f) => f.agentic.includes('mcp_server'), action: 'expose an MCP server for agents' },
  ai_crawlers_allowed_share: { has: (f) => f.agentic.includes('ai_crawlers_allowed'), action: 'allow the major AI crawlers in robots rules' },
  meta_ads_share: { has: (f) => f.ads.includes('meta'), action: 'test advertising on Meta' },
  google_ads_share: { has: (f) => f.ads.includes('google'), action: 'test advertising on Google' },
  tiktok_ads_share: { has: (f) => f.ads.includes('tiktok'), action: 'test advertising on TikTok' },
  pinterest_ads_share: { has: (f) => f.ads.includes('pinterest'), action: 'test advertising on Pinterest' },
};

/** A peer share at least this high, for a feature the store lacks, is worth a recommendation. */
export const RECOMMEND_SHARE = 0.25;

const pct = (v: number): string => `${Math.round(v * 1000) / 10}%`;
/** A peer cell in the words of the sentence its citation goes with (stats/text.ts scopeText). */
const cellWords = (dim: string): string => (dim === 'all' ? 'all stores in the panel' : scopeText(dim.slice(0, dim.indexOf(':')), dim.slice(dim.indexOf(':') + 1)));

export function buildGrowthReport(input: ReportInput): GrowthReportContent {
  const f = input.features?.month === input.month ? input.features : null;
  const dims = peerDimensions(f);
  const peers: PeerFigure[] = [];
  // A share as the page shows it: numerator / n, rounded once (stats/format.ts shownValue).
  const shares = new Map<PeerFigure, number>();
  for (const doc of input.documents) {
    if (doc.month !== input.month) continue;
    for (const s of doc.stats) {
      if (!dims.includes(s.dimension) || s.month !== input.month || !published(s)) continue;
      const peer: PeerFigure = { slug: doc.slug, metric_key: s.metric_key, dimension: s.dimension, value: s.value, n: s.n, month: s.month, sentence: s.sentence, citation: s.citation, canonical_url: s.canonical_url };
      peers.push(peer);
      shares.set(peer, shownValue(s, 'share')!);
    }
  }
  peers.sort((a, b) => a.slug.localeCompare(b.slug) || a.metric_key.localeCompare(b.metric_key) || dims.indexOf(a.dimension) - dims.indexOf(b.dimension));
  const recommendations: Recommendation[] = [];
  if (f) {
    for (const [metric, feature] of Object.entries(FEATURE_OF)) {
      if (feature.has(f)) continue;
      // The most specific published cell speaks for the peers.
      const fig = dims.map((d) => peers.find((p) => p.metric_key === metric && p.dimension === d)).find((p) => p !== undefined);
      if (!fig || fig.value < RECOMMEND_SHARE) continue;
      recommendations.push({
        text: `${pct(shares.get(fig)!)} of ${cellWords(fig.dimension)} already do this; this store does not: ${feature.action}.`,
        metric_key: fig.metric_key,
        dimension: fig.dimension,
        citation: fig.citation,
      });
    }
    const visits = dims.map((d) => peers.find((p) => p.metric_key === 'mean_monthly_visits' && p.dimension === d)).find((p) => p !== undefined);
    if (visits && f.monthly_visits !== null && f.monthly_visits < visits.value) {
      recommendations.push({
        text: `The store had ${f.monthly_visits.toLocaleString('en-US')} visits, below the ${Math.round(visits.value).toLocaleString('en-US')} average of ${cellWords(visits.dimension)}: traffic is the first lever.`,
        metric_key: visits.metric_key,
        dimension: visits.dimension,
        citation: visits.citation,
      });
    }
  }
  return {
    store_id: input.storeId,
    month: input.month,
    store: f
      ? { domain: f.domain, country: f.country, category: f.category, plan: f.plan, monthly_visits: f.monthly_visits, est_monthly_revenue_usd: f.est_monthly_revenue_usd, product_count: f.product_count, apps: f.apps, ads: f.ads, agentic: f.agentic }
      : null,
    peers,
    signals: input.signals.filter((s) => s.month <= input.month),
    evidence: [...input.evidence],
    recommendations,
  };
}

/**
 * Text from the panel (a domain, a category, a signal's subject) as markdown shows it as it is:
 * a line break would start a block of its own (a heading, a rule, a list) where the text
 * stands, so each run of them is one space; markup characters are escaped.
 */
const mdText = (s: string): string => s.replace(/[\r\n\v\f\u0085\u2028\u2029]+/g, ' ').replace(/([\\`*_[\]<>#|])/g, '\\$1');

export function growthReportMarkdown(r: GrowthReportContent): string {
  const lines = [`# Growth report: ${mdText(r.store?.domain ?? r.store_id)} (${r.month})`, ''];
  if (r.store) {
    lines.push(`Store ${mdText(r.store_id)}: ${[r.store.country, r.store.category, r.store.plan].filter(Boolean).map((s) => mdText(s!)).join(', ') || 'no country, category or plan known'}.`, '');
  } else {
    lines.push(`The panel of ${r.month} has no row for store ${mdText(r.store_id)}: its features that month are unknown, so it is compared with all stores in the panel only, and there is no recommendation.`, '');
  }
  lines.push('## Recommendations', '');
  if (r.recommendations.length === 0) lines.push(r.store ? 'Nothing stands out against its peers this month.' : 'None: the store is not in the panel this month.');
  for (const x of r.recommendations) {
    // The figure's URL stands as published (escaped, its `#` would read `\#`, a URL no browser
    // finds); the text around it may hold a category's markup and is escaped.
    const url = r.peers.find((p) => p.metric_key === x.metric_key && p.dimension === x.dimension)?.canonical_url;
    const citation = url && x.citation.includes(url) ? x.citation.split(url).map(mdText).join(url) : mdText(x.citation);
    lines.push(`- ${mdText(x.text)} (${citation})`);
  }
  lines.push('', '## Compared with its peers', '');
  for (const p of r.peers) lines.push(`- ${mdText(p.sentence)} [${p.metric_key}, ${mdText(p.dimension)}](${p.canonical_url})`);
  lines.push('', '## Signals', '');
  if (r.signals.length === 0) lines.push('No signals.');
  for (const s of r.signals) lines.push(`- ${s.month}: ${mdText(s.detail)}`);
  lines.push('', '## Evidence', '');
  if (r.evidence.length === 0) lines.push('No evidence from the accounts model.');
  for (const e of r.evidence) lines.push(`- ${mdText(e.detail)}: ${e.contribution >= 0 ? '+' : ''}${e.contribution.toFixed(3)}`);
  lines.push('', 'Figures from storelens public statistics, CC BY 4.0.', '');
  return lines.join('\n');
}
