/**
 * The in-market list an agency reads from the top: best score first, with its explore rows
 * (marked, best score first among themselves) at every EXPLORE_EVERY-th position (every
 * EXPLORE_EVERY × LATER_SPREAD-th once the workspace has BOUND_FIRST_UNTIL outcomes)
 * (accounts/in-market.ts listOrder), while every other account keeps the place its score gives
 * it and every row's evidence still adds up to the logit it shows. The explore rows are picked by
 * an upper bound (selectInMarketColumns): logit + EXPLORE_BOUND × the logit's posterior sd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUND_FIRST_UNTIL, EXPLORE_AFTER, EXPLORE_BOUND, EXPLORE_EVERY, LATER_SPREAD, MIN_EXPLORE } from '../../src/accounts/in-market.js';
import { listPositions, selectInMarket, type RankInput } from '../helpers/in-market-rows.js';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { rowsEvidence } from '../../src/accounts/evidence.js';
import { currentRows } from '../../src/accounts/ranking-reads.js';
import type { Db } from '../../src/compose/database.js';
import { workspace } from '../helpers/api.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { seedRun, type SeedSignal, type SeedStore } from '../helpers/accounts.js';

const NOW = new Date('2026-11-01T00:00:00Z');

/** Thirty rows by score (r00 best). */
function rows(): RankInput[] {
  return Array.from({ length: 30 }, (_, i) => {
    const logit = 2 - i / 5;
    return { store_id: `r${String(i).padStart(2, '0')}`, score: 1 / (1 + Math.exp(-logit)), logit, eligible: true, labelled: false };
  });
}
const inOrder = (pos: Map<string, number>) => [...pos].sort((a, b) => a[1] - b[1]).map(([id]) => id);
const ids = (xs: number[]) => xs.map((i) => `r${String(i).padStart(2, '0')}`);

describe('the in-market list order', () => {
  // r00–r11 in market on their scores, r20, r22, r25 as explore rows (below the others).
  const inMarket = new Set(ids([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 20, 22, 25]));
  const explore = new Set(ids([20, 22, 25]));

  it('is score order with every 0', () => {
    expect(inOrder(listPositions(rows(), inMarket, explore, 0))).toEqual(ids(Array.from({ length: 30 }, (_, i) => i)));
  });

  it('puts an explore row at every third position, best score first, the others by score, and the rest once the others run out', () => {
    const listed = inOrder(listPositions(rows(), inMarket, explore, 3)).filter((id) => inMarket.has(id));
    expect(listed).toEqual(ids([0, 1, 20, 2, 3, 22, 4, 5, 25, 6, 7, 8, 9, 10, 11]));
  });

  it('puts the explore rows after the others when there are fewer of those than every − 1', () => {
    const few = new Set(ids([0, 1, 20, 22]));
    expect(inOrder(listPositions(rows(), few, new Set(ids([20, 22])), 10)).filter((id) => few.has(id))).toEqual(ids([0, 1, 20, 22]));
  });

  it('moves only the in-market rows, among the positions their scores give them', () => {
    const pos = listPositions(rows(), inMarket, explore, 3);
    const held = [...inMarket].map((id) => pos.get(id)!).sort((a, b) => a - b);
    expect(held).toEqual([...Array.from({ length: 12 }, (_, i) => i), 20, 22, 25]);
    for (const [id, k] of pos) if (!inMarket.has(id)) expect(id).toBe(ids([k])[0]);
  });

  it('counts the turn of an explore row among the rows not yet worked: a worked row keeps its place and takes no turn', () => {
    // r00, r01 and r03 have outcomes: of the rows an agency has yet to work, every third is an explore row.
    const worked = new Set(ids([0, 1, 3]));
    const rs = rows().map((r) => ({ ...r, labelled: worked.has(r.store_id) }));
    const listed = inOrder(listPositions(rs, inMarket, explore, 3)).filter((id) => inMarket.has(id));
    expect(listed).toEqual(ids([0, 1, 2, 3, 4, 20, 5, 6, 22, 7, 8, 25, 9, 10, 11]));
    const open = listed.filter((id) => !worked.has(id));
    expect(open.slice(0, 9).filter((id) => explore.has(id))).toEqual([open[2], open[5], open[8]]);
  });

  it('puts the explore row of the highest upper bound first among them while fewer than BOUND_FIRST_UNTIL rows have an outcome, then best score first', () => {
    // r25 has the highest upper bound of the three; r00, r01 and r03 have outcomes.
    const picks = ids([25, 20, 22]);
    const worked = new Set(ids([0, 1, 3]));
    const rs = rows().map((r) => ({ ...r, labelled: worked.has(r.store_id) }));
    const listed = inOrder(listPositions(rs, inMarket, explore, 3, picks)).filter((id) => inMarket.has(id));
    expect(listed).toEqual(ids([0, 1, 2, 3, 4, 25, 5, 6, 20, 7, 8, 22, 9, 10, 11]));
    // With every 0 the list stays in score order.
    expect(inOrder(listPositions(rs, inMarket, explore, 0, picks))).toEqual(ids(Array.from({ length: 30 }, (_, i) => i)));
    // Once BOUND_FIRST_UNTIL rows have an outcome, the explore rows are best score first again,
    // at every (3 × LATER_SPREAD)-th position among the rows not yet worked.
    const many = [...rows(), ...Array.from({ length: BOUND_FIRST_UNTIL }, (_, i): RankInput => ({ store_id: `w${String(i).padStart(3, '0')}`, score: 0.01, eligible: false, labelled: true }))];
    const later = inOrder(listPositions(many, inMarket, explore, 3, picks)).filter((id) => inMarket.has(id));
    expect(LATER_SPREAD).toBe(2);
    expect(later).toEqual(ids([0, 1, 2, 3, 4, 20, 5, 6, 7, 8, 9, 22, 10, 11, 25]));
    // One outcome fewer, and they are at every third again.
    const fewer = many.filter((r) => r.store_id !== 'w000');
    expect(inOrder(listPositions(fewer, inMarket, explore, 3)).filter((id) => inMarket.has(id))).toEqual(ids([0, 1, 20, 2, 3, 22, 4, 5, 25, 6, 7, 8, 9, 10, 11]));
  });

  it('gives the explore rows one position in ten by default', () => {
    expect(EXPLORE_EVERY).toBe(10);
  });
});

describe('the explore rows', () => {
  /** 20 in-market rows (logit 3), then 40 below the list: logit falling, the sd rising every other row. */
  function below(): RankInput[] {
    const top = Array.from({ length: 20 }, (_, i): RankInput => ({ store_id: `t${String(i).padStart(2, '0')}`, score: 1 / (1 + Math.exp(-3)), logit: 3, eligible: true, labelled: false, sd: 0.1 }));
    const rest = Array.from({ length: 40 }, (_, i): RankInput => {
      const logit = -2 - i / 100;
      return { store_id: `b${String(i).padStart(2, '0')}`, score: 1 / (1 + Math.exp(-logit)), logit, eligible: true, labelled: false, sd: i % 2 === 1 ? 1 : 0.1 };
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

  it('come from further down the list too, never from its best EXPLORE_AFTER rows without an outcome', () => {
    // 70 rows in the list (t00 best), the last ten of them very uncertain; 300 sure rows far below.
    const listed = Array.from({ length: 70 }, (_, i): RankInput => {
      const logit = 3 - i / 100;
      return { store_id: `t${String(i).padStart(2, '0')}`, score: 1 / (1 + Math.exp(-logit)), logit, eligible: true, labelled: false, sd: i >= 60 ? 2 : 0.1 };
    });
    const far = Array.from({ length: 300 }, (_, i): RankInput => ({ store_id: `f${String(i).padStart(3, '0')}`, score: 1 / (1 + Math.exp(4)), logit: -4, eligible: true, labelled: false, sd: 0.1 }));
    const tIds = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `t${String(from + k).padStart(2, '0')}`);
    const { inMarket, explore } = selectInMarket([...listed, ...far]);
    expect(EXPLORE_AFTER).toBe(50);
    expect(tIds(0, 70).every((id) => inMarket.has(id))).toBe(true);
    expect([...explore].slice(0, 20)).toEqual([...tIds(60, 70), ...tIds(50, 60)]);
    expect(explore.size).toBe(MIN_EXPLORE);
    expect(tIds(0, 50).some((id) => explore.has(id))).toBe(false);
    // With an outcome on t00 the agency has yet to work t01 … t50: t50 is no explore row then.
    const worked = selectInMarket([{ ...listed[0], labelled: true }, ...listed.slice(1), ...far]).explore;
    expect(worked.has('t50')).toBe(false);
    expect(worked.has('t51')).toBe(true);
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

    it('lists the in-market rows best score first with an explore row at every tenth position, every other row by score, and each row\'s evidence adds up to the logit it shows', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, NOW);
      const rows = await currentRows(db.kysely, ws.id);
      const listed = rows.filter((r) => r.in_market === 1);
      const others = rows.filter((r) => r.in_market === 0);
      const explore = listed.filter((r) => r.explore === 1);
      expect(explore.length).toBeGreaterThan(0);
      expect(listed.length - explore.length).toBeGreaterThanOrEqual(EXPLORE_EVERY);
      // The in-market rows hold the positions their scores give them, in another order.
      const byScore = [...rows].sort((a, b) => b.score - a.score || (a.store_id < b.store_id ? -1 : 1));
      const scorePos = new Map(byScore.map((r, k) => [r.store_id, k + 1]));
      const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
      expect(sorted(listed.map((r) => r.pos))).toEqual(sorted(listed.map((r) => scorePos.get(r.store_id)!)));
      expect(others.map((r) => r.store_id)).toEqual(byScore.filter((r) => r.in_market === 0).map((r) => r.store_id));
      // The rest best score first, and so the explore rows among themselves after the first: with
      // no outcome yet (fewer than BOUND_FIRST_UNTIL) that is the one of the highest upper bound.
      const scoresOf = (xs: typeof rows) => xs.map((r) => r.score);
      const rest = listed.filter((r) => r.explore === 0);
      expect(scoresOf(rest)).toEqual(sorted(scoresOf(rest)).reverse());
      expect(scoresOf(explore.slice(1))).toEqual(sorted(scoresOf(explore.slice(1))).reverse());
      const upper = (r: (typeof rows)[number]) => r.logit + EXPLORE_BOUND * Number(r.logit_sd);
      for (const r of explore) expect(upper(explore[0])).toBeGreaterThanOrEqual(upper(r));
      // An explore row at every tenth position while the others last.
      const lastRest = listed.map((r) => r.explore).lastIndexOf(0);
      let e = 0;
      for (const [k, r] of listed.entries()) {
        const want = k > lastRest || ((k + 1) % EXPLORE_EVERY === 0 && e < explore.length) ? 1 : 0;
        e += want;
        expect([k, r.explore]).toEqual([k, want]);
      }
      const shown = await rowsEvidence(db.kysely, ws.id, rows);
      for (const [k, row] of rows.entries()) {
        const evidence = shown[k] as { contribution: number }[];
        expect(evidence.reduce((s, e) => s + e.contribution, 0)).toBeCloseTo(row.logit, 9);
        expect(row.score).toBeCloseTo(1 / (1 + Math.exp(-row.logit)), 12);
      }
    });

    it('lists by score with every 0', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, NOW, { exploreEvery: 0 });
      const rows = await currentRows(db.kysely, ws.id);
      const byScore = [...rows].sort((a, b) => b.score - a.score || (a.store_id < b.store_id ? -1 : 1));
      expect(rows.map((r) => r.store_id)).toEqual(byScore.map((r) => r.store_id));
    });
  });
}
