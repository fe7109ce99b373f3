/**
 * Exploration inside the order an agency works: the in-market list is ordered by a bold posterior
 * draw (accounts/refresh.ts listPositions), so its first rows already carry what the model most
 * needs to learn, while every other account keeps the place its score gives it and every row's
 * evidence still adds up to the logit it shows. The explore rows are picked by an upper bound
 * (selectInMarket): logit + EXPLORE_BOUND × the logit's posterior sd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLORE_BOUND, LIST_SPREAD, listPositions, MIN_EXPLORE, refreshWorkspace, selectInMarket, type RankInput } from '../../src/accounts/refresh.js';
import { rowsEvidence } from '../../src/accounts/evidence.js';
import { currentRows } from '../../src/accounts/rankings.js';
import type { Db } from '../../src/compose/database.js';
import { workspace } from '../api/harness.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { seedRun, type SeedSignal, type SeedStore } from '../helpers/accounts.js';

const NOW = new Date('2026-11-01T00:00:00Z');

/** Ten rows by score (r0 best); r1, r3, r5, r7 in market, r7 as an explore row; sampled logits reversed. */
function rows(): RankInput[] {
  return Array.from({ length: 10 }, (_, i) => {
    const logit = 2 - i / 2;
    return { store_id: `r${i}`, score: 1 / (1 + Math.exp(-logit)), logit, eligible: true, labelled: false, sampled: logit + i };
  });
}
const inMarket = new Set(['r1', 'r3', 'r5', 'r7']);
const explore = new Set(['r7']);
const inOrder = (pos: Map<string, number>) => [...pos].sort((a, b) => a[1] - b[1]).map(([id]) => id);

describe('the in-market list order', () => {
  it('is score order with spread 0', () => {
    expect(inOrder(listPositions(rows(), inMarket, explore, 0))).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9']);
  });

  it('orders the in-market rows by the stretched draw, among the positions their scores hold; the other rows stay put', () => {
    // logit + 2 × (sampled − logit) = logit + 2i: r7 (explore) 12.5, r5 9.5, r3 6.5, r1 3.5.
    const order = inOrder(listPositions(rows(), inMarket, explore, 2));
    expect(order).toEqual(['r0', 'r7', 'r2', 'r5', 'r4', 'r3', 'r6', 'r1', 'r8', 'r9']);
  });

  it('keeps the explore rows in score order among themselves', () => {
    const twoExplore = new Set(['r5', 'r7']);
    const order = inOrder(listPositions(rows(), inMarket, twoExplore, 2)).filter((id) => inMarket.has(id));
    // The draw puts the explore rows first (r7, r5); they keep their score order (r5, r7).
    expect(order).toEqual(['r5', 'r7', 'r3', 'r1']);
  });

  it('strays twice the posterior spread from the score by default', () => {
    expect(LIST_SPREAD).toBe(2);
  });
});

describe('the explore rows', () => {
  /** 20 in-market rows (logit 3), then 40 below the list: logit falling, the sd rising every other row. */
  function below(): RankInput[] {
    const top = Array.from({ length: 20 }, (_, i): RankInput => ({ store_id: `t${String(i).padStart(2, '0')}`, score: 1 / (1 + Math.exp(-3)), logit: 3, eligible: true, labelled: false, sampled: 3, sd: 0.1 }));
    const rest = Array.from({ length: 40 }, (_, i): RankInput => {
      const logit = -2 - i / 100;
      return { store_id: `b${String(i).padStart(2, '0')}`, score: 1 / (1 + Math.exp(-logit)), logit, eligible: true, labelled: false, sampled: logit, sd: i % 2 === 1 ? 1 : 0.1 };
    });
    return [...top, ...rest];
  }

  it('are the accounts below the list with the highest logit + EXPLORE_BOUND × sd: an uncertain account before a surer, slightly better-scored one', () => {
    const { explore } = selectInMarket(below());
    expect(explore.size).toBe(MIN_EXPLORE);
    // The 20 uncertain rows (b01, b03, …) are all picked; then the surer rows best score first.
    const odd = Array.from({ length: 20 }, (_, k) => `b${String(2 * k + 1).padStart(2, '0')}`);
    expect([...explore].slice(0, 20)).toEqual(odd);
    expect([...explore].slice(20)).toEqual(['b00', 'b02', 'b04', 'b06', 'b08']);
  });

  it('are the best-scored accounts below the list with bound 0', () => {
    const { explore } = selectInMarket(below(), undefined, 0);
    expect([...explore]).toEqual(Array.from({ length: MIN_EXPLORE }, (_, i) => `b${String(i).padStart(2, '0')}`));
  });

  it('look one and a half posterior sds above the logit by default', () => {
    expect(EXPLORE_BOUND).toBe(1.5);
  });
});

/** 120 stores in two categories, every one with a fresh signal. */
function stores(): { stores: SeedStore[]; signals: SeedSignal[] } {
  const out: SeedStore[] = [];
  const signals: SeedSignal[] = [];
  for (let i = 0; i < 120; i++) {
    const id = `s${String(i).padStart(3, '0')}`;
    out.push({ store_id: id, country: i % 3 === 0 ? 'US' : 'GB', category: i % 2 === 0 ? 'beauty' : 'toys', plan: i % 4 === 0 ? 'plus' : 'grow', monthly_visits: 1000 + 37 * i, apps: ['klaviyo'], ads: i % 5 === 0 ? ['meta'] : [] });
    signals.push({ store_id: id, type: i % 7 === 0 ? 'ad_channel_started' : 'app_installed', subject: 'x', strength: 1, detail: 'Did something' });
  }
  return { stores: out, signals };
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`a refreshed list on ${d.label}`, () => {
    let t: TestDb;
    let db: Db;
    beforeAll(async () => {
      t = await freshDb(d.name);
      db = t.db;
      const s = stores();
      await seedRun(db, '2026-10', 'run-2026-10', s.stores, s.signals);
    });
    afterAll(async () => t?.cleanup());

    it('lists the in-market rows by the draw, every other row by score, and each row\'s evidence adds up to the logit it shows', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, NOW);
      const rows = await currentRows(db.kysely, ws.id);
      const listed = rows.filter((r) => r.in_market === 1);
      const others = rows.filter((r) => r.in_market === 0);
      expect(listed.some((r) => r.explore === 1)).toBe(true);
      // The in-market rows hold the positions their scores give them, in another order.
      const byScore = [...rows].sort((a, b) => b.score - a.score || (a.store_id < b.store_id ? -1 : 1));
      const scorePos = new Map(byScore.map((r, k) => [r.store_id, k + 1]));
      const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
      expect(sorted(listed.map((r) => r.pos))).toEqual(sorted(listed.map((r) => scorePos.get(r.store_id)!)));
      expect(listed.map((r) => r.store_id)).not.toEqual(byScore.filter((r) => r.in_market === 1).map((r) => r.store_id));
      expect(others.map((r) => r.store_id)).toEqual(byScore.filter((r) => r.in_market === 0).map((r) => r.store_id));
      // Explore rows keep their score order among themselves.
      const explore = listed.filter((r) => r.explore === 1);
      expect(explore.map((r) => r.score)).toEqual([...explore.map((r) => r.score)].sort((a, b) => b - a));
      const shown = await rowsEvidence(db.kysely, ws.id, rows);
      for (const [k, row] of rows.entries()) {
        const evidence = shown[k] as { contribution: number }[];
        expect(evidence.reduce((s, e) => s + e.contribution, 0)).toBeCloseTo(row.logit, 9);
        expect(row.score).toBeCloseTo(1 / (1 + Math.exp(-row.logit)), 12);
      }
    });

    it('lists by score with spread 0', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, NOW, { listSpread: 0 });
      const rows = await currentRows(db.kysely, ws.id);
      const byScore = [...rows].sort((a, b) => b.score - a.score || (a.store_id < b.store_id ? -1 : 1));
      expect(rows.map((r) => r.store_id)).toEqual(byScore.map((r) => r.store_id));
    });
  });
}
