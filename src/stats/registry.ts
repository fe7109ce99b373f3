/**
 * The metric registry: one declarative entry per published metric. Its SQL, kind, texts and
 * version feed the aggregation, JSON, CSV, markdown, HTML and cards. Adding a metric is one entry.
 *
 * SQL expressions are evaluated on one row of `panel_facts` (a panel row plus `prev_*` columns
 * holding the same store's values in the calendar-previous month, NULL when absent):
 * - share/rate: `input` is BOOLEAN (NULL = unknown);
 * - mean: `input` is numeric (NULL = unknown); numerator = exact sum;
 * - count: `input` is BOOLEAN, "qualifies"; NULL counts as not qualifying (a count's null_rate is 0).
 * `eligible` (default TRUE) narrows the stores a metric speaks about.
 */
import { APP_KINDS } from '../core/apps.js';
import { AD_COLUMNS, AGENTIC_COLUMNS } from '../core/panel-contract.js';
import { FLOOR } from './floor.js';
import type { MetricKind, Slug } from './types.js';

export interface MetricDef {
  slug: Slug;
  key: string;
  title: string;
  kind: MetricKind;
  unit: 'stores' | 'share' | 'products' | 'visits' | 'usd' | 'apps' | 'signals' | 'channels';
  input: string;
  eligible?: string;
  definition: string;
  /**
   * News sentence. Placeholders: {value} (formatted), {scope} ("tracked stores", "stores in US",
   * "apparel stores" …), {Scope} (capitalised), {month} ("October 2026"), {n}.
   */
  sentence: string;
  methodology_version: string;
  /**
   * How the delta is taken: on the matched cohort (default for shares, rates and means), or
   * whole cell against whole cell (counts always; metrics that are about the change itself).
   */
  delta?: 'cohort' | 'cell';
  /**
   * Metrics whose `n` is the same figure (same known input) share one suppression pattern,
   * so one cannot reveal the sample size the other hides.
   */
  group?: string;
  /**
   * What one store adds to a mean's numerator, when it is bounded: the disclosure audit uses it
   * (default [0, ∞): the inputs are counts and amounts). Shares and counts add 0 or 1.
   */
  range?: readonly [number, number];
  /**
   * The numerator counts stores present in both months (a cohort): it is a sample size, and
   * below the floor it is not published (DESIGN.md "Statistics rules").
   */
  numeratorIsSampleSize?: boolean;
  /**
   * Only stores present in both months are eligible (a trend): the metric's n is at most the
   * cell's cohort, so a published n bounds a hidden cohort from below, and hiding a cell's
   * cohort hides this metric's figures for the cell too.
   */
  withinCohort?: boolean;
  /** Breakdowns that would be tautologies (a plan share by plan). */
  skip?: ReadonlyArray<'country' | 'category' | 'plan' | 'app'>;
}

export interface PageDef {
  slug: Slug;
  title: string;
  intro: string;
  /** Whether metrics of this page are also broken down by installed app. */
  byApp?: boolean;
}

/** Bumped when the registry changes in a way that changes published figures. */
export const REGISTRY_VERSION = '2026.11-3';
const V1 = '1.0';

/** Number of true flags, NULL when any flag is unknown. */
const countTrue = (cols: readonly string[]) => `(${cols.map((c) => `${c}::INT`).join(' + ')})`;
/** TRUE when the store has any of these apps (list_contains per app: four times cheaper than list_has_any). */
const hasApp = (apps: readonly string[]) => `(${apps.map((a) => `list_contains(apps, '${a}')`).join(' OR ')})`;
/** Month-over-month change in a value that exists in both months. */
const prevKnown = (col: string) => `(${col} IS NOT NULL AND prev_${col} IS NOT NULL)`;

export const PAGES: readonly PageDef[] = [
  { slug: 'platform-stores', title: 'Platform stores', intro: 'How many stores are active on the platform, how new they are, and how large: products, traffic and estimated revenue.' },
  { slug: 'agentic-commerce', title: 'Agentic commerce readiness', intro: 'How ready stores are for AI shopping agents: llms.txt files, product structured data, agent checkout, MCP servers and AI crawler access.' },
  { slug: 'platform-apps', title: 'Platform apps', intro: 'Which apps stores install, how many, and what the stores using each app look like.', byApp: true },
  { slug: 'platform-advertising', title: 'Platform advertising', intro: 'Which ad channels stores use, judged by the pixels and tags seen on their storefronts.' },
  { slug: 'platform-trends', title: 'Platform trends', intro: 'What changed since the previous month within the same stores: adoption of apps, ad channels and agentic features, traffic and plan changes.' },
  { slug: 'methodology', title: 'Methodology', intro: `How the panel is built and how complete it is. Every figure counts stores observed in the month. A figure based on fewer than ${FLOOR} stores is suppressed (publication floor), and so is a figure that is itself a number of stores (a count, or the stores also active the month before) when it is below ${FLOOR}. Suppressed figures must not be recoverable from what is published, alone or combined across breakdowns, metrics and months: before anything is published, an audit bounds every hidden figure from all published figures of the month and the month before, by linear programming, and further figures are suppressed until the protection rule holds. The rule: a hidden store count can be bounded by a reader no closer than from 30% below its true size (down to one store) to 30% above it and to at least ${FLOOR} stores, and no hidden sample size, numerator or cohort can be determined exactly, zero included. Stores with an unknown country, category or plan form a hidden cell of their own, whose size is public. Month-over-month changes compare the same stores in both months (matched cohort) and are suppressed below ${FLOOR} such stores. A corrected month is published again: comparing the two releases shows what the correction changed, and a correction of only a few stores can reveal those stores’ own figures.` },
];

export const METRICS: readonly MetricDef[] = [
  // platform-stores
  { slug: 'platform-stores', key: 'active_stores', title: 'Active stores', kind: 'count', unit: 'stores', input: 'TRUE', definition: 'Number of stores observed active in the month.', sentence: 'In {month}, storelens observed {value} active {scope}.', methodology_version: V1 },
  { slug: 'platform-stores', key: 'new_stores', title: 'New stores', kind: 'count', unit: 'stores', input: 'created_month = month', definition: 'Number of active stores created in the month.', sentence: 'In {month}, {value} new {scope} opened.', methodology_version: V1 },
  { slug: 'platform-stores', key: 'new_store_rate', title: 'New-store rate', kind: 'rate', delta: 'cell', unit: 'share', input: 'created_month = month', definition: 'Share of active stores with a known creation month that were created in the month.', sentence: 'In {month}, {value} of {scope} were created that month.', methodology_version: V1 },
  { slug: 'platform-stores', key: 'custom_domain_share', title: 'Stores on a custom domain', kind: 'share', unit: 'share', input: "NOT suffix(domain, '.myshopify.com')", definition: 'Share of stores with a known domain that use their own domain rather than the platform subdomain.', sentence: 'In {month}, {value} of {scope} used a custom domain.', methodology_version: V1 },
  { slug: 'platform-stores', key: 'plus_plan_share', title: 'Stores on the plus plan', kind: 'share', group: 'plan', skip: ['plan'], unit: 'share', input: "plan = 'plus'", definition: 'Share of stores with a known plan that are on the plus plan.', sentence: 'In {month}, {value} of {scope} were on the plus plan.', methodology_version: V1 },
  { slug: 'platform-stores', key: 'mean_product_count', title: 'Products per store', kind: 'mean', unit: 'products', input: 'product_count', definition: 'Mean number of products listed, over stores with a known product count.', sentence: 'In {month}, {scope} listed {value} on average.', methodology_version: V1 },
  { slug: 'platform-stores', key: 'mean_monthly_visits', title: 'Monthly visits per store', kind: 'mean', group: 'visits', unit: 'visits', input: 'monthly_visits', definition: 'Mean estimated monthly visits, over stores with a known estimate.', sentence: 'In {month}, {scope} had {value} on average.', methodology_version: V1 },
  { slug: 'platform-stores', key: 'mean_est_revenue_usd', title: 'Estimated monthly revenue per store', kind: 'mean', group: 'revenue', unit: 'usd', input: 'est_monthly_revenue_usd', definition: 'Mean estimated monthly revenue in US dollars, over stores with a known estimate.', sentence: 'In {month}, {scope} made an estimated {value} a month on average.', methodology_version: V1 },

  // agentic-commerce
  { slug: 'agentic-commerce', key: 'llms_txt_share', title: 'Stores with an llms.txt file', kind: 'share', unit: 'share', input: 'llms_txt', definition: 'Share of stores, among those checked, that serve an llms.txt file.', sentence: 'In {month}, {value} of {scope} served an llms.txt file.', methodology_version: V1 },
  { slug: 'agentic-commerce', key: 'product_schema_share', title: 'Stores with product structured data', kind: 'share', unit: 'share', input: 'product_schema', definition: 'Share of stores, among those checked, whose product pages carry schema.org Product data.', sentence: 'In {month}, {value} of {scope} published schema.org product data.', methodology_version: V1 },
  { slug: 'agentic-commerce', key: 'agent_checkout_share', title: 'Stores with agent checkout', kind: 'share', unit: 'share', input: 'agent_checkout', definition: 'Share of stores, among those checked, that let an AI agent complete checkout.', sentence: 'In {month}, {value} of {scope} offered agent checkout.', methodology_version: V1 },
  { slug: 'agentic-commerce', key: 'mcp_server_share', title: 'Stores with an MCP server', kind: 'share', unit: 'share', input: 'mcp_server', definition: 'Share of stores, among those checked, that expose a Model Context Protocol server.', sentence: 'In {month}, {value} of {scope} exposed an MCP server.', methodology_version: V1 },
  { slug: 'agentic-commerce', key: 'ai_crawlers_allowed_share', title: 'Stores allowing AI crawlers', kind: 'share', unit: 'share', input: 'ai_crawlers_allowed', definition: 'Share of stores, among those checked, whose robots rules allow the major AI crawlers.', sentence: 'In {month}, {value} of {scope} allowed AI crawlers.', methodology_version: V1 },
  { slug: 'agentic-commerce', key: 'agent_ready_share', title: 'Agent-ready stores', kind: 'share', unit: 'share', input: '(llms_txt AND product_schema AND ai_crawlers_allowed)', definition: 'Share of stores that serve llms.txt, publish product structured data and allow AI crawlers (unknown when a missing check could change the answer).', sentence: 'In {month}, {value} of {scope} were agent-ready.', methodology_version: V1 },
  { slug: 'agentic-commerce', key: 'mean_readiness_signals', title: 'Readiness signals per store', kind: 'mean', group: 'agentic', unit: 'signals', range: [0, 5], input: countTrue(AGENTIC_COLUMNS), definition: 'Mean number of the five readiness signals present, over stores with all five checked.', sentence: 'In {month}, {scope} showed {value} on average, out of five readiness signals checked.', methodology_version: V1 },

  // platform-apps (also broken down by app)
  { slug: 'platform-apps', key: 'mean_apps_installed', title: 'Apps per store', kind: 'mean', group: 'apps', unit: 'apps', input: 'len(apps)', definition: 'Mean number of detected apps, over stores whose apps are known.', sentence: 'In {month}, {scope} ran {value} on average.', methodology_version: V1 },
  { slug: 'platform-apps', key: 'five_plus_apps_share', title: 'Stores with five or more apps', kind: 'share', group: 'apps', unit: 'share', input: 'len(apps) >= 5', definition: 'Share of stores with known apps that run five or more.', sentence: 'In {month}, {value} of {scope} ran five or more apps.', methodology_version: V1 },
  { slug: 'platform-apps', key: 'email_app_share', title: 'Stores with an email marketing app', kind: 'share', group: 'apps', unit: 'share', input: hasApp(APP_KINDS.email.apps), definition: 'Share of stores with known apps that run an email marketing app (Klaviyo, Omnisend, Mailchimp, Privy).', sentence: 'In {month}, {value} of {scope} ran an email marketing app.', methodology_version: V1 },
  { slug: 'platform-apps', key: 'reviews_app_share', title: 'Stores with a reviews app', kind: 'share', group: 'apps', unit: 'share', input: hasApp(APP_KINDS.reviews.apps), definition: 'Share of stores with known apps that run a product reviews app (Judge.me, Yotpo, Loox, Okendo).', sentence: 'In {month}, {value} of {scope} ran a reviews app.', methodology_version: V1 },
  { slug: 'platform-apps', key: 'subscriptions_app_share', title: 'Stores with a subscriptions app', kind: 'share', group: 'apps', unit: 'share', input: hasApp(APP_KINDS.subscriptions.apps), definition: 'Share of stores with known apps that run a subscriptions app (Recharge, Bold, Appstle).', sentence: 'In {month}, {value} of {scope} sold subscriptions through an app.', methodology_version: V1 },
  { slug: 'platform-apps', key: 'support_app_share', title: 'Stores with a support app', kind: 'share', group: 'apps', unit: 'share', input: hasApp(APP_KINDS.support.apps), definition: 'Share of stores with known apps that run a customer support or chat app (Gorgias, Tidio, Shopify Inbox).', sentence: 'In {month}, {value} of {scope} ran a support or chat app.', methodology_version: V1 },

  // platform-advertising
  ...AD_COLUMNS.map((col): MetricDef => {
    const channel = { ads_meta: 'Meta', ads_google: 'Google', ads_tiktok: 'TikTok', ads_pinterest: 'Pinterest' }[col]!;
    return { slug: 'platform-advertising', key: `${col.slice(4)}_ads_share`, title: `Stores advertising on ${channel}`, kind: 'share', unit: 'share', input: col, definition: `Share of stores, among those checked, with a ${channel} ad pixel or tag.`, sentence: `In {month}, {value} of {scope} carried a ${channel} ad pixel.`, methodology_version: V1 };
  }),
  { slug: 'platform-advertising', key: 'any_ads_share', title: 'Stores advertising anywhere', kind: 'share', unit: 'share', input: `(${AD_COLUMNS.join(' OR ')})`, definition: 'Share of stores with at least one ad pixel or tag of the four channels (unknown when no pixel was seen and a channel was not checked).', sentence: 'In {month}, {value} of {scope} advertised on at least one channel.', methodology_version: V1 },
  { slug: 'platform-advertising', key: 'multi_channel_ads_share', title: 'Stores on two or more ad channels', kind: 'share', group: 'ads', unit: 'share', input: `${countTrue(AD_COLUMNS)} >= 2`, definition: 'Share of stores, with all four channels checked, that advertise on two or more.', sentence: 'In {month}, {value} of {scope} advertised on two or more channels.', methodology_version: V1 },
  { slug: 'platform-advertising', key: 'mean_ad_channels', title: 'Ad channels per store', kind: 'mean', group: 'ads', unit: 'channels', range: [0, 4], input: countTrue(AD_COLUMNS), definition: 'Mean number of the four ad channels used, over stores with all four checked.', sentence: 'In {month}, {scope} used {value} on average.', methodology_version: V1 },

  // platform-trends (same store, previous month; NULL when the store was not there). These are
  // about change already: their delta compares whole cells.
  { slug: 'platform-trends', key: 'returning_store_share', title: 'Stores also active last month', kind: 'share', delta: 'cell', numeratorIsSampleSize: true, unit: 'share', input: 'prev_present', definition: 'Share of active stores that were also active in the previous month.', sentence: 'In {month}, {value} of {scope} had also been active the month before.', methodology_version: V1 },
  { slug: 'platform-trends', key: 'app_adopter_share', title: 'Stores that installed a new app', kind: 'share', delta: 'cell', withinCohort: true, unit: 'share', input: `CASE WHEN ${prevKnown('apps')} THEN len(list_filter(apps, a -> NOT list_contains(prev_apps, a))) > 0 END`, definition: 'Share of stores, with known apps in both months, that installed at least one app they did not run the month before.', sentence: 'In {month}, {value} of {scope} installed a new app.', methodology_version: V1 },
  { slug: 'platform-trends', key: 'ad_channel_adopter_share', title: 'Stores that added an ad channel', kind: 'share', delta: 'cell', withinCohort: true, unit: 'share', input: `CASE WHEN prev_present THEN (${AD_COLUMNS.map((c) => `(${c} AND NOT prev_${c})`).join(' OR ')}) END`, definition: 'Share of stores, checked in both months, that started advertising on a channel they did not use the month before.', sentence: 'In {month}, {value} of {scope} added an ad channel.', methodology_version: V1 },
  { slug: 'platform-trends', key: 'agentic_adopter_share', title: 'Stores that adopted an agentic feature', kind: 'share', delta: 'cell', withinCohort: true, unit: 'share', input: `CASE WHEN prev_present THEN (${AGENTIC_COLUMNS.map((c) => `(${c} AND NOT prev_${c})`).join(' OR ')}) END`, definition: 'Share of stores, checked in both months, that adopted at least one agentic-commerce readiness signal they lacked the month before.', sentence: 'In {month}, {value} of {scope} adopted a new agentic-commerce feature.', methodology_version: V1 },
  { slug: 'platform-trends', key: 'traffic_jump_share', title: 'Stores whose traffic jumped', kind: 'share', delta: 'cell', withinCohort: true, unit: 'share', input: `CASE WHEN ${prevKnown('monthly_visits')} THEN monthly_visits > prev_monthly_visits * 1.1 END`, definition: 'Share of stores, with visit estimates in both months, whose monthly visits rose by more than 10%.', sentence: 'In {month}, {value} of {scope} grew their traffic by more than 10%.', methodology_version: V1 },
  { slug: 'platform-trends', key: 'plan_upgrade_share', title: 'Stores that upgraded their plan', kind: 'share', delta: 'cell', withinCohort: true, unit: 'share', input: `CASE WHEN ${prevKnown('plan')} THEN plan_rank(plan) > plan_rank(prev_plan) END`, definition: 'Share of stores, with a known plan in both months, that moved to a higher plan (basic < grow < advanced < plus).', sentence: 'In {month}, {value} of {scope} upgraded their plan.', methodology_version: V1 },
  { slug: 'platform-trends', key: 'mean_product_count_change', title: 'Change in products per store', kind: 'mean', delta: 'cell', withinCohort: true, range: [-Infinity, Infinity], unit: 'products', input: `CASE WHEN ${prevKnown('product_count')} THEN product_count - prev_product_count END`, definition: 'Mean change in the number of products listed since the previous month, over stores with known counts in both months.', sentence: 'In {month}, {scope} changed their catalogue by {value} on average.', methodology_version: V1 },

  // methodology: panel size and field completeness
  { slug: 'methodology', key: 'panel_stores', title: 'Stores in the panel', kind: 'count', unit: 'stores', input: 'TRUE', definition: 'Number of stores in the month’s panel.', sentence: 'In {month}, the panel held {value} {scope}.', methodology_version: V1 },
  ...(
    [
      ['country', 'country', 'country'],
      ['category', 'category', 'category'],
      ['plan', 'plan', 'plan'],
      ['est_monthly_revenue_usd', 'revenue', 'revenue estimate'],
      ['apps', 'apps', 'app list'],
      ['monthly_visits', 'visits', 'visit estimate'],
    ] as const
  ).map(([col, key, label]): MetricDef => ({
    slug: 'methodology', key: `${key}_known_share`, title: `Stores with a known ${label}`, kind: 'share', unit: 'share', input: `${col} IS NOT NULL`, definition: `Share of panel stores whose ${label} is known.`, sentence: `In {month}, the ${label} was known for {value} of {scope}.`, methodology_version: V1,
    group: { est_monthly_revenue_usd: 'revenue', apps: 'apps', monthly_visits: 'visits', plan: 'plan' }[col as string],
    skip: (['country', 'category', 'plan'] as const).filter((d) => d === col),
  })),
  { slug: 'methodology', key: 'agentic_checked_share', title: 'Stores with every readiness signal checked', kind: 'share', group: 'agentic', unit: 'share', input: `${countTrue(AGENTIC_COLUMNS)} IS NOT NULL`, definition: 'Share of panel stores for which all five agentic-commerce readiness signals were checked.', sentence: 'In {month}, all five readiness signals were checked for {value} of {scope}.', methodology_version: V1 },
];

/** How a metric's delta is taken (MetricDef.delta): counts always compare cells. */
export const deltaKind = (m: MetricDef): 'cohort' | 'cell' => (m.kind === 'count' ? 'cell' : (m.delta ?? 'cohort'));

export const pageOf = (slug: Slug): PageDef => PAGES.find((p) => p.slug === slug)!;
export const metricsOf = (slug: Slug): MetricDef[] => METRICS.filter((m) => m.slug === slug);
