import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { currentRows } from '../../src/accounts/ranking-reads.js';
import { PRIOR } from '../../src/accounts/prior.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { mcpClient, toolJson } from '../helpers/mcp.js';
import { dialects } from '../helpers/db.js';
import { seedSixtyStores } from '../helpers/accounts.js';

const PROBLEM = 'https://storelens.dev/problems/';

/** A figure as the insights show it: four decimal places. */
const shown4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Every number of the body, with where it is. */
function numbersOf(value: unknown, at = ''): Array<[string, number]> {
  if (typeof value === 'number') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbersOf(v, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => numbersOf(v, `${at}.${k}`));
  return [];
}

/** No figure carries float noise: each is written with four decimals at most (`-4.47`, not `-4.4699729999999995`). */
function expectShown(body: unknown): void {
  const noisy = numbersOf(body).filter(([, x]) => !/^-?\d+(\.\d{1,4})?$/.test(String(x)));
  expect(noisy).toEqual([]);
}

interface Decile {
  decile: number;
  count: number;
  wins: number;
  predicted: number | null;
  observed: number | null;
  small_sample: boolean;
}

// The insights endpoint over a real in-process server: the model, its labels, its weights with
// their uncertainty, and the backtest of outcomes scored before the model saw them.
for (const d of dialects) {
  describe.skipIf(d.skip)(`model insights on ${d.label}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: { read: 1000, write: 1000, report: 5 } });
      await seedSixtyStores(h.db);
    });
    afterAll(async () => h?.close());

    const refresh = (ws: Workspace) => refreshWorkspace(h.db, ws.id, h.clock.now());
    const scoreOf = async (ws: Workspace, storeId: string) => (await currentRows(h.db.kysely, ws.id)).find((r) => r.store_id === storeId)!.score;
    const outcome = async (key: string, store_id: string, action: 'won' | 'lost' | 'discovery') => {
      const body = action === 'lost' ? { store_id, action, lost_reason: 'timing' } : { store_id, action };
      const r = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body });
      expect(r.status).toBe(200);
      h.clock.advance(1000);
    };
    const insights = async (key: string) => {
      const r = await call(h.base, 'GET', '/model-insights', { key });
      expect(r.status).toBe(200);
      return r.body;
    };

    it('says so on a workspace that was never ranked and has no labels', async () => {
      const ws = await workspace(h.db);
      const body = await insights(await apiKey(h.db, ws.id, ['read:accounts']));
      expect(body).toMatchObject({ object: 'model_insights', model_version: null, trained_at: null, intercept: null, weights: [] });
      expect(body.labels).toEqual({ total: 0, won: 0, lost: 0, in_progress: 0, used_by_model: 0 });
      expect(body.backtest).toMatchObject({ outcomes_scored: 0, wins: 0, win_rate: null, small_sample: true, unscored: 0, history: [] });
      expect(body.backtest.note).toMatch(/No won or lost outcome yet/);
      expect(body.backtest.lift_at_10).toEqual({ k: 10, n: 0, wins: 0, win_rate: null, lift: null, small_sample: true });
      expect(body.backtest.calibration.map((c: Decile) => c.count)).toEqual(Array(10).fill(0));
    });

    it('shows the starting weighting with its prior uncertainty before any outcome', async () => {
      const ws = await workspace(h.db);
      await refresh(ws);
      const body = await insights(await apiKey(h.db, ws.id, ['read:accounts']));
      expect(body.model_version).toBe(1);
      expect(body.trained_at).toBe(h.clock.now().toISOString());
      expect(body.labels.total).toBe(0);
      expect(body.intercept).toEqual({ weight: PRIOR.intercept.mean, sd: expect.closeTo(PRIOR.intercept.sd, 9) });
      expect(body.weights).toHaveLength(10);
      // Without labels every weight sits at its prior mean, exactly as uncertain as the prior.
      for (const w of body.weights) {
        expect(w.weight).toBeCloseTo(w.prior.mean, 9);
        expect(w.sd).toBeCloseTo(w.prior.sd, 9);
        expect(w.interval[0]).toBeLessThan(w.weight);
        expect(w.label).not.toBe(w.feature);
      }
      const abs = body.weights.map((w: { weight: number }) => Math.abs(w.weight));
      expect(abs).toEqual([...abs].sort((a, b) => b - a));
      expect(body.weights[0]).toMatchObject({ feature: 'signal:store_closed', label: 'Signal: Store closed (the latest month)', weight: PRIOR.signal.store_closed.mean });
      // Nothing learnt yet: no weight has moved from the starting weighting.
      expect(body.weights.every((w: { moved: number }) => w.moved === 0)).toBe(true);
      expect(body.learned).toEqual([]);
      // The interval of a weight at its prior mean (-3 ± 1.96 × 0.75: -4.47, not -4.4699729999999995).
      expect(body.weights[0].interval).toEqual([shown4(PRIOR.signal.store_closed.mean - 1.959964 * PRIOR.signal.store_closed.sd), shown4(PRIOR.signal.store_closed.mean + 1.959964 * PRIOR.signal.store_closed.sd)]);
      expectShown(body);
    });

    it('scores an outcome with the score the account had before it was recorded, not the refitted one', async () => {
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:outcomes']);
      await refresh(ws);
      const before = await scoreOf(ws, 'st05');
      await outcome(key, 'st05', 'won');
      await refresh(ws);
      const after = await scoreOf(ws, 'st05');
      expect(after).toBeGreaterThan(before);
      // The outcome kept the row it had in the ranking current when it was recorded.
      const kept = await h.db.kysely.selectFrom('outcomes').select(['ranked_score', 'ranked_model_version']).where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
      expect({ score: Number(kept.ranked_score), model_version: Number(kept.ranked_model_version) }).toEqual({ score: before, model_version: 1 });

      let body = await insights(key);
      expect(body.model_version).toBe(2);
      expect(body.labels).toEqual({ total: 1, won: 1, lost: 0, in_progress: 0, used_by_model: 1 });
      expect(body.backtest).toMatchObject({ outcomes_scored: 1, wins: 1, win_rate: 1, small_sample: true });
      expect(body.backtest.note).toMatch(/Only 1 won or lost outcome was scored/);
      const scored = body.backtest.calibration.filter((c: Decile) => c.count > 0);
      expect(scored).toEqual([expect.objectContaining({ decile: 10, count: 1, wins: 1, predicted: shown4(before), observed: 1, small_sample: true })]);
      expect(body.backtest.history).toEqual([expect.objectContaining({ model_version: 1, outcomes_scored: 1, wins: 1 })]);
      // The label narrowed the weights of the store's inputs: the intercept (every store has it) first.
      expect(body.intercept.sd).toBeLessThan(PRIOR.intercept.sd);
      // What it taught: only the won store's own inputs moved, furthest first, in prior sds.
      const account = await call(h.base, 'GET', '/accounts/st05', { key });
      const inputs = new Set(account.body.evidence.map((e: { key: string }) => e.key));
      const learned = body.learned as Array<{ feature: string; weight: number; moved: number; prior: { mean: number; sd: number } }>;
      expect(learned.length).toBeGreaterThan(0);
      for (const w of learned) {
        expect(inputs.has(w.feature), w.feature).toBe(true);
        // Each figure rounded on its own: they agree to the rounding.
        expect(w.moved).toBeCloseTo((w.weight - w.prior.mean) / w.prior.sd, 3);
        expect(Math.abs(w.moved)).toBeGreaterThan(0);
      }
      const moved = learned.map((w) => Math.abs(w.moved));
      expect(moved).toEqual([...moved].sort((a, b) => b - a));

      // A later outcome of the same store (recorded under the refitted model) is its result, still
      // scored with the score from before the model saw any label of it.
      await outcome(key, 'st05', 'lost');
      body = await insights(key);
      expect(body.backtest).toMatchObject({ outcomes_scored: 1, wins: 0 });
      expect(body.backtest.calibration.find((c: Decile) => c.count > 0)).toMatchObject({ predicted: shown4(before), observed: 0 });
      expectShown(body);
    });

    it('adds up: labels by latest outcome, calibration counts sum to the outcomes scored, lift over the top k', async () => {
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:outcomes']);
      await refresh(ws);
      for (let i = 0; i < 24; i++) {
        await outcome(key, `st${String(i).padStart(2, '0')}`, i % 6 === 5 ? 'discovery' : i % 3 === 0 ? 'won' : 'lost');
        if (i % 8 === 7) await refresh(ws);
      }
      await outcome(key, 'not-a-store', 'won');
      const body = await insights(key);
      expect(body.labels).toEqual({ total: 25, won: 9, lost: 12, in_progress: 4, used_by_model: expect.any(Number) });
      const b = body.backtest;
      expect(b.outcomes_scored).toBe(20);
      expect(b.unscored).toBe(1);
      expect(b.wins).toBe(8);
      expect(b.win_rate).toBeCloseTo(8 / 20, 12);
      expect(b.calibration).toHaveLength(10);
      expect(b.calibration.reduce((s: number, c: Decile) => s + c.count, 0)).toBe(20);
      expect(b.calibration.reduce((s: number, c: Decile) => s + c.wins, 0)).toBe(8);
      expect(b.calibration.every((c: Decile) => c.count === 2 && c.small_sample)).toBe(true);
      expect(b.lift_at_10).toMatchObject({ k: 10, n: 10, small_sample: true });
      expect(b.lift_at_10.lift).toBeCloseTo(b.lift_at_10.win_rate / b.win_rate, 3);
      expectShown(body);
      // Every scored outcome is in the top 50: no lift to speak of.
      expect(b.lift_at_50).toMatchObject({ k: 50, n: 20, lift: null, small_sample: true });
      expect(b.history.map((e: { model_version: number }) => e.model_version)).toEqual([1, 2, 3]);
      expect(b.history.at(-1).outcomes_scored).toBe(20);
      expect(b.history.map((e: { outcomes_scored: number }) => e.outcomes_scored)).toEqual([...b.history.map((e: { outcomes_scored: number }) => e.outcomes_scored)].sort((x, y) => x - y));
    });

    it("shows a workspace only its own model and outcomes", async () => {
      const mine = await workspace(h.db);
      const theirs = await workspace(h.db);
      const key = await apiKey(h.db, mine.id, ['read:accounts', 'write:outcomes']);
      await refresh(mine);
      await refresh(theirs);
      await outcome(key, 'st01', 'won');
      await outcome(key, 'st02', 'lost');
      expect((await insights(key)).labels.total).toBe(2);
      const other = await insights(await apiKey(h.db, theirs.id, ['read:accounts']));
      expect(other.labels.total).toBe(0);
      expect(other.backtest.outcomes_scored).toBe(0);
    });

    it('answers 403 (a problem) to a key without read:accounts', async () => {
      const ws = await workspace(h.db);
      const r = await call(h.base, 'GET', '/model-insights', { key: await apiKey(h.db, ws.id, ['write:outcomes']) });
      expect(r.status).toBe(403);
      expect(r.contentType).toMatch(/^application\/problem\+json/);
      expect(r.body).toMatchObject({ type: `${PROBLEM}insufficient-scope`, status: 403, required_scope: 'read:accounts' });
    });

    it('is an MCP tool for a key with read:accounts, answering the REST body', async () => {
      const ws = await workspace(h.db);
      await refresh(ws);
      const c = await mcpClient(h.base, { key: await apiKey(h.db, ws.id, ['read:accounts']) });
      try {
        const { tools } = await c.client.listTools();
        const tool = tools.find((t) => t.name === 'get_model_insights');
        expect(tool?.annotations?.readOnlyHint).toBe(true);
        const r = await c.client.callTool({ name: 'get_model_insights', arguments: {} });
        expect(r.isError).toBeFalsy();
        expect(toolJson(r)).toMatchObject({ object: 'model_insights', model_version: 1 });
      } finally {
        await c.close();
      }
    });
  });
}
