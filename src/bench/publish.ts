/**
 * The publish benchmark: `publish --all` over a generated panel, against the floor, one
 * hand-written DuckDB statement that reads the same Parquet files and computes the same counts
 * (every metric's eligible, known and qualifying counts and sums per month and cell, with the
 * previous-month join the trend metrics and deltas need), in the same run.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDuck, lit } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { publish } from '../publish/pipeline.js';
import { METRICS, type MetricDef } from '../stats/registry.js';
import { monthRange } from '../panel/columns.js';
import { PREV_COLUMNS, registerMacros } from '../panel/aggregate.js';

export interface PublishBenchOptions {
  stores: number;
  from: string;
  to: string;
  /** folder that caches the generated panel between runs */
  dataDir: string;
  log: (line: string) => void;
}

export interface PublishBenchResult {
  rows: number;
  generateSeconds: number | null;
  publishSeconds: number;
  /** of publishSeconds: building under the protection rule (the interval audit and re-builds) */
  auditSeconds: number;
  floorSeconds: number;
  ratio: number;
}

const seconds = (t0: number) => (performance.now() - t0) / 1000;

export async function benchPublish(o: PublishBenchOptions): Promise<PublishBenchResult> {
  const panel = path.join(o.dataDir, `panel-${o.stores}-${o.from}-${o.to}`);
  const months = monthRange(o.from, o.to);
  let generateSeconds: number | null = null;
  const have = await Promise.all(months.map((m) => stat(path.join(panel, `${m}.parquet`)).then(() => true, () => false)));
  if (!have.every(Boolean)) {
    o.log(`generating ${o.stores.toLocaleString('en-US')} stores × ${months.length} months as Parquet into ${panel} …`);
    const t0 = performance.now();
    const duck = await openDuck();
    try {
      await generatePanel(duck, { out: panel, stores: o.stores, from: o.from, to: o.to, seed: 'bench', format: 'parquet' });
    } finally {
      duck.close();
    }
    generateSeconds = seconds(t0);
  }
  const files = months.map((m) => path.join(panel, `${m}.parquet`));

  const out = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-'));
  try {
    o.log('publish --all --cards none …');
    let t0 = performance.now();
    let auditSeconds = 0;
    await publish({ input: panel, out, months: 'all', baseUrl: 'https://stats.example.com', cards: 'none', now: () => new Date(), onAudit: (s) => (auditSeconds = s) });
    const publishSeconds = seconds(t0);

    o.log('floor: one DuckDB statement …');
    const duck = await openDuck();
    try {
      await registerMacros(duck);
      t0 = performance.now();
      await duck.run(`CREATE TEMP TABLE floor AS ${floorSql(files)}`);
      const floorSeconds = seconds(t0);
      const [{ rows }] = await duck.all<{ rows: string }>(`SELECT count(*) AS rows FROM floor`);
      return { rows: Number(rows), generateSeconds, publishSeconds, auditSeconds, floorSeconds, ratio: publishSeconds / floorSeconds };
    } finally {
      duck.close();
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** The floor statement: read, join each store to its previous month, aggregate every cell. */
export function floorSql(files: string[]): string {
  const inputs = METRICS.map((m) => `(${m.input}) AS in_${m.key}`).join(', ');
  const aggsOf = (metrics: readonly MetricDef[]) =>
    metrics
      .map((m) => {
        const k = m.key;
        const x = m.kind === 'mean' ? `in_${k}` : `(in_${k})::INT`;
        const px = m.kind === 'mean' ? `p_in_${k}` : `(p_in_${k})::INT`;
        const both = `in_${k} IS NOT NULL AND p_in_${k} IS NOT NULL`;
        const cols = [`count(in_${k}) AS "n:${k}"`, `sum(${x}) AS "num:${k}"`, `count(p_store_id) AS "cohort:${k}"`];
        if (m.kind !== 'count') {
          cols.push(`count_if(${both}) AS "matched:${k}"`, `sum(CASE WHEN ${both} THEN ${x} END) AS "cur:${k}"`, `sum(CASE WHEN ${both} THEN ${px} END) AS "prev:${k}"`);
        }
        return cols.join(', ');
      })
      .join(',\n      ');
  const aggs = aggsOf(METRICS);
  const appAggs = aggsOf(METRICS.filter((m) => m.slug === 'platform-apps'));
  const source = `read_parquet([${files.map(lit).join(', ')}], filename = true)`;
  return `
    WITH raw AS (
      SELECT *, regexp_extract(filename, '(\\d{4}-\\d{2})\\.parquet$', 1) AS month,
        list_sort(list_distinct(string_split(apps_text, ';'))) AS apps
      FROM (SELECT * RENAME (apps AS apps_text) FROM ${source})
    ),
    p AS (SELECT *, (year(strptime(month, '%Y-%m')) * 12 + month(strptime(month, '%Y-%m')) - 1) AS mi FROM raw),
    facts AS (
      SELECT p.store_id, p.mi, p.country, p.category, p.plan, p.apps, ${inputs}
      FROM (
        SELECT p.*, q.q_store_id IS NOT NULL AS prev_present, ${PREV_COLUMNS.map((c) => `q.prev_${c}`).join(', ')}
        FROM p LEFT JOIN (SELECT store_id AS q_store_id, mi AS q_mi, ${PREV_COLUMNS.map((c) => `${c} AS prev_${c}`).join(', ')} FROM p) q
          ON q.q_mi = p.mi - 1 AND q.q_store_id = p.store_id) p
    ),
    j AS (
      SELECT c.*, pr.* FROM facts c
      LEFT JOIN (SELECT store_id AS p_store_id, mi AS p_mi, ${METRICS.map((m) => `in_${m.key} AS p_in_${m.key}`).join(', ')} FROM facts) pr
        ON pr.p_mi = c.mi - 1 AND pr.p_store_id = c.store_id
    )
    SELECT mi, country, category, plan, NULL AS app, count(*),
      ${aggs}
    FROM j GROUP BY GROUPING SETS ((mi), (mi, country), (mi, category), (mi, plan))
    UNION ALL BY NAME
    SELECT mi, app, count(*), ${appAggs}
    FROM (SELECT *, unnest(apps) AS app FROM j) GROUP BY mi, app`;
}
