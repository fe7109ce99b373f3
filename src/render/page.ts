/** What every page renderer (markdown, HTML, cards) receives: plain data, no I/O. */
import type { MetricKind, Slug, Stat, StatsDocument } from '../stats/types.js';

export interface MetricSection {
  metric_key: string;
  /** Human title, e.g. "Stores with an llms.txt file". */
  title: string;
  kind: MetricKind;
  /** Unit hint for people: 'stores' | 'share' | 'products' | 'visits' | 'usd' | 'apps' | 'signals' … */
  unit: string;
  definition: string;
  methodology_version: string;
  /** This month's stats of the metric, `all` first, then by dimension name and value. */
  stats: Stat[];
  /** The `all` row over every published month, oldest first (null where suppressed). */
  series: Array<{ month: string; value: number | null }>;
}

export interface PageModel {
  slug: Slug;
  title: string;
  intro: string;
  /** e.g. "https://stats.example.com" without trailing slash. */
  baseUrl: string;
  document: StatsDocument;
  sections: MetricSection[];
  /**
   * The release this page names: the one whose run last built it, so `/releases/{release}/…`
   * serves this page and its documents byte for byte (publish/artifacts.ts). Absent for a page
   * built before pages named their release.
   */
  release?: string;
}

/** One PNG share card (1200×630). Its content hash decides whether it is re-rendered. */
export interface CardInput {
  slug: Slug;
  pageTitle: string;
  month: string;
  anchor: string;
  /** The value formatted for people ("42.1%", "12,345", "$1,234.56"), or null when suppressed. */
  valueText: string | null;
  sentence: string;
  /** Sample size, null when suppressed. */
  n: number | null;
  suppressed: boolean;
  /** e.g. "storelens · stats.example.com/data/agentic-commerce · CC BY 4.0" */
  attribution: string;
  /** Optional context line: the metric's title, e.g. "Stores with an llms.txt file". */
  metricTitle?: string;
  /** Optional context line: the dimension for people, e.g. "Country: United States". */
  dimensionLabel?: string;
  /** The change vs the previous month when it is published, e.g. "+1.2 pts vs September 2026"; absent when hidden or none. */
  changeText?: string;
}

/** One item of the RSS feed: a monthly release, or a correction of a past month. */
export interface FeedItem {
  kind: 'release' | 'correction';
  month: string;
  /** ISO 8601 completion time of the run; the item's pubDate. */
  completed_at: string;
  /** Stable, unique: e.g. `release:2026-10` or `correction:2026-09:<run16>`. */
  guid: string;
  /** Slugs released or corrected. */
  slugs: Slug[];
  /** For corrections: the stat ids whose published figures changed, per slug. */
  changed?: Partial<Record<Slug, string[]>>;
  /** For corrections: the URL path of the change list of the release that made it (`/releases/{id}/api/data/changes`). */
  changes?: string;
}
