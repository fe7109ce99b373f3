/** Page models for the renderers, and ordering of a page's series. */
import type { MetricSection, PageModel } from '../render/page.js';
import { shownValue } from '../stats/format.js';
import { metricsOf, pageOf } from '../stats/registry.js';
import type { Slug, Stat, StatsDocument } from '../stats/types.js';

/** The page of one month, with each metric's `all` series over the given (ascending) documents. */
export function pageModel(doc: StatsDocument, history: StatsDocument[], baseUrl: string): PageModel {
  const page = pageOf(doc.slug);
  const sections: MetricSection[] = metricsOf(doc.slug).map((m) => ({
    metric_key: m.key,
    title: m.title,
    kind: m.kind,
    unit: m.unit,
    definition: m.definition,
    methodology_version: m.methodology_version,
    stats: doc.stats.filter((s) => s.metric_key === m.key),
    series: history
      .filter((h) => h.month <= doc.month)
      .map((h) => {
        const all = h.stats.find((s) => s.id === `${m.key}:all`);
        return { month: h.month, value: all ? shownValue(all, m.kind) : null };
      }),
  }));
  return { slug: doc.slug, title: page.title, intro: page.intro, baseUrl, document: doc, sections };
}

const DIMENSION_ORDER = ['all', 'country', 'category', 'plan', 'app'];

/** CSV order: metric (registry order), dimension (all, country, category, plan, app; values by code point), month. */
export function seriesOrder(slug: Slug): (a: Stat, b: Stat) => number {
  const metricIndex = new Map(metricsOf(slug).map((m, i) => [m.key, i]));
  const dimRank = (d: string) => DIMENSION_ORDER.indexOf(d === 'all' ? 'all' : d.slice(0, d.indexOf(':')));
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return (a, b) =>
    (metricIndex.get(a.metric_key) ?? 0) - (metricIndex.get(b.metric_key) ?? 0) ||
    dimRank(a.dimension) - dimRank(b.dimension) ||
    cmp(a.dimension, b.dimension) ||
    cmp(a.month, b.month);
}

/** Stat ids whose published figures differ between two versions of a month's document. */
export function changedStats(before: StatsDocument, after: StatsDocument): string[] {
  const figures = (s: Stat) => JSON.stringify([s.value, s.numerator, s.n, s.null_rate, s.suppressed, s.delta]);
  const old = new Map(before.stats.map((s) => [s.id, figures(s)]));
  const ids = new Set<string>();
  for (const s of after.stats) if (old.get(s.id) !== figures(s)) ids.add(s.id);
  const kept = new Set(after.stats.map((s) => s.id));
  for (const s of before.stats) if (!kept.has(s.id)) ids.add(s.id);
  return [...ids].sort();
}
