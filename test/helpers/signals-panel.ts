/**
 * A hand-built three-month panel (2026-01 to 2026-03) in which every signal type happens, with
 * values at and just below each threshold, unknown values, a store that leaves and returns, and
 * hostile text. test/panel/signals.test.ts says what each store must show.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { PANEL_COLUMNS } from '../../src/core/panel-contract.js';

export const [JAN, FEB, MAR] = ['2026-01', '2026-02', '2026-03'];
export const HOSTILE_ID = '=HYPERLINK("http://x");\n\'ü 🛒 "quoted"';
export const HOSTILE_APP = '=1+1"\') DROP TABLE x--';
export const HOSTILE_DOMAIN = '<script>alert("x")</script>.example';

export type Row = Partial<Record<(typeof PANEL_COLUMNS)[number]['name'], string>>;
export const base = (id: string, over: Row = {}): Row => ({
  store_id: id, domain: `${id}.example`, country: 'US', category: 'apparel', plan: 'grow', created_month: '2024-05',
  product_count: '100', monthly_visits: '5000', est_monthly_revenue_usd: '8000.00', apps: 'klaviyo',
  ads_meta: 'false', ads_google: 'false', ads_tiktok: 'false', ads_pinterest: 'false',
  llms_txt: 'false', product_schema: 'false', agent_checkout: 'false', mcp_server: 'false', ai_crawlers_allowed: 'false',
  ...over,
});

/** month → rows; what each store does is said beside it. */
export const PANEL: Record<string, Row[]> = {
  [JAN]: [
    base('new-in-first-month', { created_month: JAN }), // store_opened in the first month
    base('old-in-first-month'), // nothing: the first month has no previous month
    base('leaves-and-returns'),
    base('changes-everything', {
      plan: 'basic', product_count: '40', monthly_visits: '10000', est_monthly_revenue_usd: '1000.00', apps: 'klaviyo',
      ads_meta: 'true', mcp_server: 'true',
    }),
    base('below-thresholds', { plan: 'enterprise', product_count: '5', monthly_visits: '99', est_monthly_revenue_usd: '999.99' }),
    base('unknowns', { plan: '', product_count: '10', monthly_visits: '', est_monthly_revenue_usd: '', apps: '', ads_meta: '', llms_txt: '' }),
    base(HOSTILE_ID, { domain: HOSTILE_DOMAIN, category: "Robert'); DROP TABLE panel;--", apps: 'safe' }),
    base('apps-emptied', { apps: 'klaviyo;yotpo' }),
  ],
  [FEB]: [
    base('new-in-first-month', { created_month: JAN }),
    base('old-in-first-month'),
    // leaves-and-returns is absent: store_closed
    base('opens-in-feb', { created_month: FEB }), // store_opened "Opened in"
    base('changes-everything', {
      plan: 'plus', product_count: '50', monthly_visits: '13000', est_monthly_revenue_usd: '1300.00', apps: 'klaviyo;judge.me',
      ads_meta: 'false', ads_tiktok: 'true', llms_txt: 'true', mcp_server: 'false',
    }),
    base('below-thresholds', { plan: 'plus', product_count: '14', monthly_visits: '1000', est_monthly_revenue_usd: '5000.00' }),
    base('unknowns', { plan: 'plus', product_count: '', monthly_visits: '20000', est_monthly_revenue_usd: '5000.00', apps: 'klaviyo', ads_meta: 'true', llms_txt: 'true' }),
    base(HOSTILE_ID, { domain: HOSTILE_DOMAIN, category: "Robert'); DROP TABLE panel;--", apps: `safe;${HOSTILE_APP}` }),
    base('apps-emptied', { apps: ' ; ' }), // a list of no apps (not unknown): app_removed of both
  ],
  [MAR]: [
    base('new-in-first-month', { created_month: JAN }),
    base('old-in-first-month'),
    base('leaves-and-returns'), // back: store_opened "Appeared in the panel"
    // opens-in-feb is gone: store_closed in the last month
    base('changes-everything', {
      plan: 'grow', product_count: '50', monthly_visits: '9750', est_monthly_revenue_usd: '1300.00', apps: 'klaviyo',
      ads_tiktok: 'true', llms_txt: 'true',
    }),
    base('below-thresholds', { plan: 'plus', product_count: '14', monthly_visits: '1299', est_monthly_revenue_usd: '6499.99' }),
    base('unknowns', { plan: 'plus', product_count: '', monthly_visits: '20000', est_monthly_revenue_usd: '5000.00', apps: 'klaviyo', ads_meta: 'true', llms_txt: 'true' }),
    base(HOSTILE_ID, { domain: HOSTILE_DOMAIN, category: "Robert'); DROP TABLE panel;--", apps: `safe;${HOSTILE_APP}` }),
    base('apps-emptied', { apps: 'yotpo' }), // app_installed yotpo, and nothing installed of the empty list
  ],
};

/** Writes `panel` as YYYY-MM.csv files into `dir` (made if absent). */
export async function writePanel(dir: string, panel: Record<string, Row[]> = PANEL): Promise<void> {
  await mkdir(dir, { recursive: true });
  const columns = PANEL_COLUMNS.map((c) => c.name);
  for (const [month, rows] of Object.entries(panel)) {
    await writeFile(path.join(dir, `${month}.csv`), stringify(rows, { header: true, columns, quoted_match: /[\n"',;]/ }));
  }
}

