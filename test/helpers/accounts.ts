/**
 * Seeding what the ingest and the ranking refresh write (store_months, store_signals,
 * ingested_months, accounts) straight into the database, for tests of the account operations.
 */
import { createHash } from 'node:crypto';
import type { AccountStatus } from '../../src/accounts/statuses.js';
import { upsertAccounts } from '../../src/accounts/store.js';
import { insertStoreMonths, insertStoreSignals } from '../../src/ingest/stores.js';
import { ensureDemoKey } from '../../src/compose/demo.js';
import type { Db } from '../../src/compose/database.js';
import { type FixtureSignal, type FixtureStore, signalRecord, storeRecord } from './runs-fixture.js';

export type SeedStore = FixtureStore;

export type SeedSignal = FixtureSignal;

/** A store as the panel has it, healthy for a watch by default: visits and revenue steady, one ad channel. */
export const steadyStore = (store_id: string, over: Partial<SeedStore> = {}): SeedStore => ({
  store_id,
  domain: `${store_id}.example`,
  country: 'US',
  monthly_visits: 10_000,
  est_monthly_revenue_usd: 20_000,
  ads: ['meta'],
  ...over,
});

export const signalId = (month: string, s: SeedSignal): string =>
  `sig_${createHash('md5').update(`${month}\0${s.store_id}\0${s.type}\0${s.subject ?? ''}`).digest('hex')}`;

/**
 * One month's run, written as ingest writes it (the contract's rows, ingest/stores.ts inserts), and
 * (unless `visible: false`) the ingested_months row that makes it the month's visible run.
 */
export async function seedRun(db: Db, month: string, runId: string, stores: SeedStore[], signals: SeedSignal[], visible = true): Promise<void> {
  await db.write(async (trx) => {
    await insertStoreMonths(
      trx,
      stores.map((s) => {
        const r = storeRecord(month, s);
        return { ...r, run_id: runId, apps: JSON.stringify(r.apps), ads: JSON.stringify(r.ads), agentic: JSON.stringify(r.agentic) };
      }),
    );
    await insertStoreSignals(trx, signals.map((s) => ({ ...signalRecord(month, s), run_id: runId, id: signalId(month, s) })));
    if (visible) {
      await trx
        .insertInto('ingested_months')
        .values({ month, run_id: runId, stores: stores.length, signals: signals.length, loaded_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('month').doUpdateSet({ run_id: runId }))
        .execute();
    }
  });
}

export interface SeedAccount {
  store_id: string;
  score: number;
  country?: string | null;
  category?: string | null;
  plan?: string | null;
  domain?: string | null;
  in_market?: boolean;
  status?: AccountStatus;
  logit?: number;
  explore?: boolean;
  model_version?: number;
  signals?: unknown[];
  evidence?: unknown[];
}

/** Accounts rows of a workspace, as the ranking refresh would write them (a status is set on a new row). */
export async function seedAccounts(db: Db, workspaceId: string, accounts: SeedAccount[], now = new Date()): Promise<void> {
  const rows = accounts.map((a) => ({ ...a, logit: a.logit ?? Math.log(a.score / (1 - a.score)), model_version: a.model_version ?? 1 }));
  await db.write((trx) => upsertAccounts(trx, workspaceId, rows, now));
}

/** The demo workspace's key, with two scored accounts to list (as if its panel had been ingested). */
export async function demoWithAccounts(db: Db): Promise<{ workspace: string; workspaceId: string; key: string }> {
  const demo = await ensureDemoKey(db);
  await seedAccounts(db, demo.workspaceId, [
    { store_id: 'demo-a', score: 0.9, domain: 'a.example' },
    { store_id: 'demo-b', score: 0.8, domain: 'b.example' },
  ]);
  return demo;
}

/**
 * Sixty stores of 2026-10 (run `run-2026-10`): two countries (GB every third), two categories
 * (toys, beauty), growing visits, each with a klaviyo install signal or, every fourth, traffic up.
 */
export function seedSixtyStores(db: Db): Promise<void> {
  const stores = Array.from({ length: 60 }, (_, i) => ({
    store_id: `st${String(i).padStart(2, '0')}`,
    country: i % 3 ? 'US' : 'GB',
    category: i % 2 ? 'toys' : 'beauty',
    plan: 'grow',
    monthly_visits: 500 + 37 * i,
  }));
  return seedRun(db, '2026-10', 'run-2026-10', stores, stores.map((s, i) => ({ store_id: s.store_id, type: i % 4 ? ('app_installed' as const) : ('traffic_up' as const), subject: 'klaviyo' })));
}
