/**
 * What a reader downloads: every month's statistics documents and every page's CSV, read from the
 * published folder alone (no storelens code). The JSON and the CSV are merged figure by figure;
 * a figure one shows and the other hides counts as shown, and a disagreement is recorded.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

export interface Figure {
  metric: string;
  /** `all`, or `country:US` and the like */
  dimension: string;
  value: number | null;
  numerator: number | null;
  n: number | null;
  suppressed: boolean;
  /** the delta's cohort size and value, when the delta is shown */
  cohort: number | null;
  change: number | null;
}

export interface Release {
  /** month → `metric|dimension` → figure */
  months: Map<string, Map<string, Figure>>;
  /** JSON and CSV saying different things about one figure */
  disagreements: string[];
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

export async function readRelease(out: string): Promise<Release> {
  const data = path.join(out, 'api', 'data');
  const months = new Map<string, Map<string, Figure>>();
  const disagreements: string[] = [];
  const put = (month: string, f: Figure, source: string) => {
    if (!months.has(month)) months.set(month, new Map());
    const byKey = months.get(month)!;
    const key = `${f.metric}|${f.dimension}`;
    const had = byKey.get(key);
    if (!had) return void byKey.set(key, f);
    const merged: Figure = { ...had };
    for (const k of ['value', 'numerator', 'n', 'cohort', 'change'] as const) {
      if (had[k] !== null && f[k] !== null && had[k] !== f[k]) disagreements.push(`${month} ${key} ${k}: ${had[k]} vs ${f[k]} (${source})`);
      merged[k] = had[k] ?? f[k];
    }
    merged.suppressed = had.suppressed && f.suppressed;
    byKey.set(key, merged);
  };
  for (const entry of await readdir(data, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      for (const file of await readdir(path.join(data, entry.name))) {
        if (!/^\d{4}-\d{2}\.json$/.test(file)) continue;
        const doc = JSON.parse(await readFile(path.join(data, entry.name, file), 'utf8'));
        for (const s of doc.stats) {
          const delta = s.delta && !s.delta.suppressed ? s.delta : null;
          put(doc.month, { metric: s.metric_key, dimension: s.dimension, value: s.value, numerator: s.numerator, n: s.n, suppressed: s.suppressed, cohort: delta?.cohort_n ?? null, change: delta?.value ?? null }, 'json');
        }
      }
    } else if (entry.name.endsWith('.csv')) {
      const rows = parse(await readFile(path.join(data, entry.name), 'utf8'), { columns: true }) as Array<Record<string, string>>;
      for (const r of rows) {
        const deltaShown = r.delta_suppressed === 'false';
        put(r.month, { metric: r.metric_key, dimension: r.dimension, value: num(r.value), numerator: num(r.numerator), n: num(r.n), suppressed: r.suppressed === 'true', cohort: deltaShown ? num(r.delta_cohort_n) : null, change: deltaShown ? num(r.delta_value) : null }, 'csv');
      }
    }
  }
  return { months, disagreements };
}
