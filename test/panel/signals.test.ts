/**
 * Signals derived by publish (src/panel/signals.ts through src/panel/runs.ts) on a hand-built
 * three-month panel: every signal type, the panel's first and last months, a store that leaves
 * and returns, unknown values (no signal), thresholds at and just below their edge, and hostile
 * text that must come back from the Parquet files exactly as it went in.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lit, openDuck } from '../../src/panel/duck.js';
import { readRunsIndex } from '../../src/panel/runs.js';
import { typedStores } from '../../src/ingest/runs-folder.js';
import { SIGNALS } from '../../src/panel/signals.js';
import { SIGNAL_TYPES } from '../../src/core/signals.js';
import { publishPanel } from '../helpers/cli.js';
import { FEB, HOSTILE_APP, HOSTILE_DOMAIN, HOSTILE_ID, JAN, MAR, PANEL, writePanel } from '../helpers/signals-panel.js';
import { tempDirs } from '../helpers/tmp.js';

interface Signal {
  id: string;
  month: string;
  store_id: string;
  type: string;
  subject: string | null;
  strength: number;
  detail: string;
}

const dirs = tempDirs('storelens-signals-');
let runs: string;
const signals = new Map<string, Signal[]>();
const stores = new Map<string, Array<Record<string, unknown>>>();
let summaryRuns: string[];

beforeAll(async () => {
  const root = await dirs.make();
  const input = path.join(root, 'panel');
  runs = path.join(root, 'runs');
  await writePanel(input);
  summaryRuns = (await publishPanel(input, path.join(root, 'out'), { runs })).runs;
  const index = await readRunsIndex(runs);
  const duck = await openDuck();
  try {
    for (const m of [JAN, FEB, MAR]) {
      const dir = path.join(runs, m, index.months[m]);
      signals.set(m, await duck.all<Signal>(`SELECT * FROM read_parquet(${lit(path.join(dir, 'signals.parquet'))})`));
      // The run's stores as ingest reads them: its copy of the panel file, typed as publish types it.
      const { select } = await typedStores(duck, { month: m, file: path.join(dir, 'stores.csv'), name: 'stores.csv', format: 'csv' }, 'stores_csv');
      const rows = await duck.all<Record<string, unknown>>(select);
      stores.set(m, rows.map((r) => ({ ...r, apps: JSON.parse(r.apps as string), ads: JSON.parse(r.ads as string), agentic: JSON.parse(r.agentic as string) })));
    }
  } finally {
    duck.close();
  }
});
afterAll(() => dirs.removeAll());

/** A month's signals as `store_id type subject` lines, sorted. */
const lines = (m: string) => signals.get(m)!.map((s) => [s.store_id, s.type, s.subject ?? '-'].join(' ')).sort();
const find = (m: string, store: string, type: string) => signals.get(m)!.find((s) => s.store_id === store && s.type === type);

describe('signals of a hand-built three-month panel', () => {
  it('writes a run for every month of the panel', () => {
    expect(summaryRuns).toEqual([JAN, FEB, MAR]);
  });

  it('in the first month, opens only the stores created that month', () => {
    expect(lines(JAN)).toEqual(['new-in-first-month store_opened -']);
    expect(find(JAN, 'new-in-first-month', 'store_opened')).toMatchObject({ strength: 1, detail: 'Opened in 2026-01' });
  });

  it('derives every change of the second month, and nothing for values below a threshold or unknown', () => {
    expect(lines(FEB)).toEqual(
      [
        'changes-everything ad_channel_started tiktok',
        'changes-everything ad_channel_stopped meta',
        'changes-everything agentic_feature_adopted llms_txt',
        'changes-everything agentic_feature_dropped mcp_server',
        'changes-everything app_installed judge.me',
        'changes-everything catalogue_growth -',
        'changes-everything plan_upgraded plus',
        'changes-everything revenue_jump -',
        'changes-everything traffic_up -',
        'apps-emptied app_removed klaviyo',
        'apps-emptied app_removed yotpo',
        'leaves-and-returns store_closed -',
        'opens-in-feb store_opened -',
        `${HOSTILE_ID} app_installed ${HOSTILE_APP}`,
      ].sort(),
    );
  });

  it('says each change in plain words with its strength', () => {
    const s = (type: string) => find(FEB, 'changes-everything', type);
    expect(s('traffic_up')).toMatchObject({ detail: 'Monthly visits up 30% (10,000 → 13,000)' });
    expect(s('traffic_up')!.strength).toBeCloseTo(0.3, 10);
    expect(s('catalogue_growth')).toMatchObject({ detail: 'Products up 25% (40 → 50)' });
    expect(s('catalogue_growth')!.strength).toBeCloseTo(0.25, 10);
    expect(s('revenue_jump')).toMatchObject({ detail: 'Estimated monthly revenue up 30% ($1,000 → $1,300)' });
    expect(s('plan_upgraded')).toMatchObject({ subject: 'plus', strength: 1, detail: 'Upgraded from basic to plus' });
    expect(s('ad_channel_started')).toMatchObject({ strength: 1, detail: 'Started advertising on TikTok' });
    expect(s('ad_channel_stopped')).toMatchObject({ detail: 'Stopped advertising on Meta' });
    expect(s('app_installed')).toMatchObject({ detail: 'Installed judge.me' });
    expect(s('agentic_feature_adopted')).toMatchObject({ detail: 'Adopted llms.txt' });
    expect(s('agentic_feature_dropped')).toMatchObject({ detail: 'Dropped an MCP server' });
    expect(find(FEB, 'opens-in-feb', 'store_opened')).toMatchObject({ detail: 'Opened in 2026-02' });
    expect(find(FEB, 'leaves-and-returns', 'store_closed')).toMatchObject({ strength: 1 });
  });

  it('in the last month, closes the store that went and reopens the one that came back', () => {
    expect(lines(MAR)).toEqual(
      [
        'changes-everything app_removed judge.me',
        'apps-emptied app_installed yotpo',
        'changes-everything plan_downgraded grow',
        'changes-everything traffic_down -',
        'leaves-and-returns store_opened -',
        'opens-in-feb store_closed -',
      ].sort(),
    );
    expect(find(MAR, 'changes-everything', 'traffic_down')).toMatchObject({ strength: 0.25, detail: 'Monthly visits down 25% (13,000 → 9,750)' });
    expect(find(MAR, 'changes-everything', 'plan_downgraded')).toMatchObject({ detail: 'Downgraded from plus to grow' });
    expect(find(MAR, 'changes-everything', 'app_removed')).toMatchObject({ detail: 'Removed judge.me' });
    expect(find(MAR, 'leaves-and-returns', 'store_opened')).toMatchObject({ detail: 'Appeared in the panel in 2026-03, absent the month before' });
  });

  it('declares each signal type of the shared list exactly once', () => {
    expect(SIGNALS.map((s) => s.type)).toEqual([...SIGNAL_TYPES]);
  });

  it('derives every signal type somewhere in the panel', () => {
    const seen = new Set([JAN, FEB, MAR].flatMap((m) => signals.get(m)!.map((s) => s.type)));
    expect([...seen].sort()).toEqual([...SIGNAL_TYPES].sort());
  });

  it('gives every signal a strength in (0, 1] and the stable id of the contract', () => {
    const all = [JAN, FEB, MAR].flatMap((m) => signals.get(m)!);
    for (const s of all) {
      expect(s.strength).toBeGreaterThan(0);
      expect(s.strength).toBeLessThanOrEqual(1);
      const md5 = createHash('md5').update([s.month, s.store_id, s.type, s.subject ?? ''].join('\0')).digest('hex');
      expect(s.id).toBe(`sig_${md5}`);
    }
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
  });

  it("keeps hostile text as data in the run's stores and signals", () => {
    const row = stores.get(FEB)!.find((r) => r.store_id === HOSTILE_ID)!;
    expect(row).toMatchObject({ domain: HOSTILE_DOMAIN, category: "Robert'); DROP TABLE panel;--", apps: [HOSTILE_APP, 'safe'].sort() });
    expect(find(FEB, HOSTILE_ID, 'app_installed')).toMatchObject({ subject: HOSTILE_APP, detail: `Installed ${HOSTILE_APP}` });
  });

  it('lists each store present in the month once, with its features as lists', () => {
    expect(stores.get(FEB)!.map((r) => r.store_id).sort()).toEqual(PANEL[FEB].map((r) => r.store_id!).sort());
    const row = stores.get(FEB)!.find((r) => r.store_id === 'changes-everything')!;
    expect(row).toMatchObject({
      month: FEB, plan: 'plus', created_month: '2024-05', product_count: '50', monthly_visits: '13000', est_monthly_revenue_usd: 1300,
      apps: ['judge.me', 'klaviyo'], ads: ['tiktok'], agentic: ['llms_txt'],
    });
    const unknown = stores.get(JAN)!.find((r) => r.store_id === 'unknowns')!;
    expect(unknown).toMatchObject({ plan: null, monthly_visits: null, est_monthly_revenue_usd: null, apps: [], ads: [], agentic: [] });
  });
});
