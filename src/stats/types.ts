/** Shapes of the public statistics (SPEC.md "Stat", "Statistics document"). */
import type { Slug } from '../core/public-paths.js';

// The public pages are named where their paths are (public-paths.ts, which serve reads too).
export { SLUGS, type Slug } from '../core/public-paths.js';

export const SCHEMA_VERSION = 1 as const;
export const LICENSE = 'CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/). Attribution: storelens, with a link to the page.';
export const PUBLISHER = 'storelens';

/** Change against the calendar-previous month, on the matched cohort (DESIGN.md "Decisions"). */
export interface Delta {
  /** current − prior, in the metric's own unit (fractions for shares); null when suppressed. */
  value: number | null;
  /** stores of this month's cell that were present in the prior month; null when suppressed. */
  cohort_n: number | null;
  suppressed: boolean;
  prior_month: string;
}

export interface Stat {
  id: string;
  metric_key: string;
  dimension: string;
  canonical_url: string;
  anchor: string;
  value: number | null;
  numerator: number | null;
  n: number | null;
  null_rate: number | null;
  suppressed: boolean;
  delta: Delta | null;
  definition: string;
  sentence: string;
  citation: string;
  month: string;
  methodology_version: string;
}

export interface StatsDocument {
  schema_version: typeof SCHEMA_VERSION;
  slug: Slug;
  month: string;
  completed_at: string;
  license: string;
  stats: Stat[];
}

export type MetricKind = 'count' | 'share' | 'rate' | 'mean';
