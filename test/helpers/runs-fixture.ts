/**
 * Contract-shaped runs folders from plain JS rows, written the way publish writes them (the
 * stores as a panel file, here NDJSON; the signals as Parquet with the contract's exact column
 * types; run.json; index.json written last): the ingest tests' input until they switch to the
 * real publish.
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lit, openDuck } from '../../src/panel/duck.js';
import { AD_COLUMNS, AGENTIC_COLUMNS } from '../../src/core/panel-contract.js';
import type { SignalType } from '../../src/core/signals.js';

export interface FixtureStore {
  store_id: string;
  domain?: string | null;
  country?: string | null;
  category?: string | null;
  plan?: string | null;
  created_month?: string | null;
  product_count?: number | null;
  monthly_visits?: number | null;
  est_monthly_revenue_usd?: number | null;
  apps?: string[];
  ads?: string[];
  agentic?: string[];
}

export interface FixtureSignal {
  store_id: string;
  type: SignalType;
  subject?: string | null;
  strength?: number;
  detail?: string;
}

export interface FixtureMonth {
  stores: FixtureStore[];
  signals?: FixtureSignal[];
}

/** The run id a fixture month gets: a hash of its content, so changed rows make a new run. */
export function fixtureRunId(month: string, m: FixtureMonth): string {
  return createHash('sha256').update(JSON.stringify({ signals_version: 'fixture', month, m })).digest('hex');
}

/**
 * Writes one run directory per month (skipping those already present) and then index.json
 * naming them (replacing the whole index: months left out are no longer named). Resolves to
 * month → run id.
 */
export async function writeRuns(runsDir: string, months: Record<string, FixtureMonth>): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const duck = await openDuck({ threads: 1 });
  try {
    for (const [month, m] of Object.entries(months)) {
      const runId = fixtureRunId(month, m);
      ids[month] = runId;
      const dir = path.join(runsDir, month, runId);
      const tmp = path.join(runsDir, month, `.tmp-${runId}`);
      await rm(tmp, { recursive: true, force: true });
      await mkdir(tmp, { recursive: true });
      const storesText = m.stores.map((s) => JSON.stringify(panelRecord(s))).join('\n') + '\n';
      const signalsJson = path.join(tmp, 'signals.ndjson');
      await writeFile(path.join(tmp, 'stores.ndjson'), storesText);
      await writeFile(signalsJson, (m.signals ?? []).map((s) => JSON.stringify(signalRecord(month, s))).join('\n') + '\n');
      await duck.run(
        `COPY (SELECT 'sig_' || md5(month || chr(0) || store_id || chr(0) || type || chr(0) || coalesce(subject, '')) AS id, month, store_id, type, subject, strength, detail ` +
          `FROM read_json(${lit(signalsJson)}, format = 'newline_delimited', columns = {month: 'VARCHAR', store_id: 'VARCHAR', type: 'VARCHAR', subject: 'VARCHAR', ` +
          `strength: 'DOUBLE', detail: 'VARCHAR'})) TO ${lit(path.join(tmp, 'signals.parquet'))} (FORMAT parquet)`,
      );
      await rm(signalsJson);
      const runJson = {
        month, run_id: runId, stores: m.stores.length, signals: (m.signals ?? []).length, signals_version: 'fixture',
        stores_file: 'stores.ndjson', stores_sha256: createHash('sha256').update(storesText).digest('hex'),
      };
      await writeFile(path.join(tmp, 'run.json'), JSON.stringify(runJson));
      await rm(dir, { recursive: true, force: true });
      await rename(tmp, dir);
    }
  } finally {
    duck.close();
  }
  await writeIndex(runsDir, ids);
  return ids;
}

/** index.json naming exactly these runs, written atomically (tmp + rename). */
export async function writeIndex(runsDir: string, months: Record<string, string>): Promise<void> {
  await mkdir(runsDir, { recursive: true });
  const tmp = path.join(runsDir, `.index.json.${process.pid}.tmp`);
  await writeFile(tmp, JSON.stringify({ runs_version: 1, months }));
  await rename(tmp, path.join(runsDir, 'index.json'));
}

/** A fixture store as a record of a panel file (the input contract's columns: apps as text, a flag column per network and feature). */
export function panelRecord(s: FixtureStore): Record<string, unknown> {
  const r = storeRecord('', s);
  return {
    store_id: r.store_id, domain: r.domain, country: r.country, category: r.category, plan: r.plan, created_month: r.created_month,
    product_count: r.product_count, monthly_visits: r.monthly_visits, est_monthly_revenue_usd: r.est_monthly_revenue_usd, apps: r.apps.join(';'),
    ...Object.fromEntries(AD_COLUMNS.map((c) => [c, r.ads.includes(c.slice('ads_'.length))])),
    ...Object.fromEntries(AGENTIC_COLUMNS.map((c) => [c, r.agentic.includes(c)])),
  };
}

/** A fixture store as the contract's row of `month` (store_months: what ingest loads of a run's stores). */
export function storeRecord(month: string, s: FixtureStore) {
  return {
    month,
    store_id: s.store_id,
    domain: s.domain ?? null,
    country: s.country ?? null,
    category: s.category ?? null,
    plan: s.plan ?? null,
    created_month: s.created_month ?? null,
    product_count: s.product_count ?? null,
    monthly_visits: s.monthly_visits ?? null,
    est_monthly_revenue_usd: s.est_monthly_revenue_usd ?? null,
    apps: s.apps ?? [],
    ads: s.ads ?? [],
    agentic: s.agentic ?? [],
  };
}

/** A fixture signal as the contract's row of `month`, without its id. */
export function signalRecord(month: string, s: FixtureSignal) {
  return { month, store_id: s.store_id, type: s.type, subject: s.subject ?? null, strength: s.strength ?? 0.5, detail: s.detail ?? `${s.type} ${s.subject ?? ''}`.trim() };
}

/** `n` plain stores `s00001…` for a month, a few features each varying with `salt`. */
export function manyStores(n: number, salt = 0): FixtureStore[] {
  const out: FixtureStore[] = [];
  for (let i = 1; i <= n; i++) {
    out.push({
      store_id: `s${String(i).padStart(6, '0')}`,
      domain: `shop${i}.example.com`,
      country: ['US', 'GB', 'DE', 'FR'][i % 4]!,
      category: ['apparel', 'beauty', 'home'][i % 3]!,
      plan: ['basic', 'grow', 'plus'][(i + salt) % 3]!,
      created_month: '2024-05',
      product_count: 10 + ((i * 7 + salt) % 500),
      monthly_visits: 1000 + ((i * 13 + salt) % 100_000),
      est_monthly_revenue_usd: 100.5 + ((i + salt) % 1000),
      apps: i % 2 ? ['klaviyo'] : [],
      ads: i % 5 === 0 ? ['meta', 'google'] : [],
      agentic: i % 7 === 0 ? ['llms_txt'] : [],
    });
  }
  return out;
}
