/**
 * Writes ingested panel rows straight into the api database (store_months, store_signals and the
 * ingested_months flip), for tests of what reads them: scoring, the account routes.
 */
import type { Db } from '../../src/db/index.js';
import type { SignalType } from '../../src/signals/types.js';

export interface StoreRow {
  store_id: string;
  country?: string | null;
  category?: string | null;
  plan?: string | null;
  domain?: string | null;
  product_count?: number | null;
  monthly_visits?: number | null;
  est_monthly_revenue_usd?: number | null;
  apps?: string[];
  ads?: string[];
  agentic?: string[];
}

export interface SignalRow {
  store_id: string;
  type: SignalType;
  subject?: string | null;
  strength?: number;
  detail?: string;
}

/** Loads one month as run `run` and makes it visible. */
export async function ingestMonth(db: Db, month: string, stores: StoreRow[], signals: SignalRow[] = [], run = `run-${month}`): Promise<void> {
  await db.write(async (trx) => {
    for (let i = 0; i < stores.length; i += 200) {
      await trx
        .insertInto('store_months')
        .values(
          stores.slice(i, i + 200).map((s) => ({
            run_id: run,
            month,
            store_id: s.store_id,
            domain: s.domain ?? `${s.store_id}.example`,
            country: s.country ?? null,
            category: s.category ?? null,
            plan: s.plan ?? null,
            created_month: null,
            product_count: s.product_count ?? null,
            monthly_visits: s.monthly_visits ?? null,
            est_monthly_revenue_usd: s.est_monthly_revenue_usd ?? null,
            apps: JSON.stringify(s.apps ?? []),
            ads: JSON.stringify(s.ads ?? []),
            agentic: JSON.stringify(s.agentic ?? []),
          })),
        )
        .execute();
    }
    for (let i = 0; i < signals.length; i += 200) {
      await trx
        .insertInto('store_signals')
        .values(
          signals.slice(i, i + 200).map((g) => ({
            run_id: run,
            id: `sig_${month}_${g.store_id}_${g.type}_${g.subject ?? ''}`,
            month,
            store_id: g.store_id,
            type: g.type,
            subject: g.subject ?? null,
            strength: g.strength ?? 1,
            detail: g.detail ?? `${g.type} ${g.subject ?? ''}`.trim(),
          })),
        )
        .execute();
    }
    await trx.deleteFrom('ingested_months').where('month', '=', month).execute();
    await trx.insertInto('ingested_months').values({ month, run_id: run, stores: stores.length, signals: signals.length, loaded_at: new Date().toISOString() }).execute();
  });
}
