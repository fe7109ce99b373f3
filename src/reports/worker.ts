/**
 * The worker's `reports` task: takes queued growth reports one at a time, reads what they need
 * (published statistics, the store's features, signals and evidence) and finishes them. When the
 * statistics a report needs are not published, the report fails with a 503-type problem and its
 * charge is refunded in the same transaction.
 */
import { rowsEvidence } from '../accounts/evidence.js';
import { getAccount } from '../db/accounts.js';
import type { Db } from '../db/index.js';
import { claimReport, failReport, finishReport, type ReportRow } from '../db/reports.js';
import { latestStoreFeatures, pageStoreSignals, toFeatures } from '../db/store-history.js';
import { visibleStoreMonths } from '../db/stores.js';
import { problemBody } from '../http/problems.js';
import { refund } from '../wallet/billing.js';
import { buildGrowthReport, REPORT_SLUGS, type ReportEvidence } from './growth.js';
import type { StatisticsSource } from './statistics.js';

export interface ReportWorkerOptions {
  now: () => Date;
  statistics: StatisticsSource;
  log?: (line: string) => void;
}

/** Generates every queued report; resolves to how many it finished or failed. */
export async function runReports(db: Db, opts: ReportWorkerOptions): Promise<number> {
  let handled = 0;
  for (let r = await claimReport(db, opts.now()); r; r = await claimReport(db, opts.now())) {
    await generate(db, r, opts);
    handled++;
  }
  return handled;
}

class Unavailable extends Error {}

async function generate(db: Db, r: ReportRow, opts: ReportWorkerOptions): Promise<void> {
  try {
    const month = r.month ?? (await opts.statistics.latestMonth());
    if (!month) throw new Unavailable('No statistics are published yet.');
    const documents = [];
    for (const slug of REPORT_SLUGS) {
      const doc = await opts.statistics.document(slug, month);
      if (doc) documents.push(doc);
      else if (slug === 'platform-stores') throw new Unavailable(`The statistics of ${month} are not published (or cannot be read right now).`);
    }
    const q = db.kysely;
    const inMonth = await visibleStoreMonths(q).selectAll('sm').where('sm.store_id', '=', r.store_id).where('sm.month', '=', month).executeTakeFirst();
    const features = inMonth ? toFeatures(inMonth) : await latestStoreFeatures(q, r.store_id);
    const signals = (await pageStoreSignals(q, r.store_id, undefined, 24)).map((s) => ({ type: s.type, month: s.month, detail: s.detail, strength: s.strength }));
    const row = await getAccount(q, r.workspace_id, r.store_id);
    const evidence = row ? ((await rowsEvidence(q, r.workspace_id, [{ model_version: Number(row.model_version), evidence: row.evidence }]))[0] as unknown as ReportEvidence[]) : [];
    const content = buildGrowthReport({ storeId: r.store_id, month, features, documents, signals, evidence });
    await db.write((trx) => finishReport(trx, r.id, content, opts.now()));
    opts.log?.(`growth report ${r.id} done (${r.store_id}, ${month})`);
  } catch (e) {
    const detail = e instanceof Unavailable ? e.message : 'The report could not be generated.';
    if (!(e instanceof Unavailable)) opts.log?.(`growth report ${r.id} failed: ${(e as Error).message}`);
    const now = opts.now();
    await db.write(async (trx) => {
      const back = r.ledger_entry_id ? await refund(trx, r.ledger_entry_id, `growth report ${r.id} failed: ${detail}`, now) : null;
      await failReport(trx, r.id, problemBody('service-unavailable', `${detail} The charge was refunded.`), back?.id ?? null, now);
    });
  }
}
