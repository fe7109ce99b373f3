import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { currentRows, type PageRow } from '../../src/accounts/ranking-reads.js';
import { sigmoid, type StoredEvidence } from '../../src/accounts/model.js';
import { priorOf } from '../../src/accounts/prior.js';
import { unpackEvidence } from '../../src/accounts/evidence.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { mcpClient, toolJson } from '../helpers/mcp.js';
import { dialects } from '../helpers/db.js';
import { seedAccounts, seedSixtyStores } from '../helpers/accounts.js';

interface Row {
  store_id: string;
  score: number;
  logit: number;
  logit_sd: number | null;
  score_interval: { level: number; low: number; high: number } | null;
  evidence: { contribution: number }[];
}

const Z90 = 1.6448536269514722;

/** A row shows its score's 90% interval: σ(logit ∓ 1.645 sd), holding the score; the evidence still adds up to the logit. */
function expectInterval(r: Row): void {
  expect(r.logit_sd).toBeGreaterThan(0);
  expect(r.score_interval).toEqual({ level: 0.9, low: expect.closeTo(sigmoid(r.logit - Z90 * r.logit_sd!), 12), high: expect.closeTo(sigmoid(r.logit + Z90 * r.logit_sd!), 12) });
  expect(r.score_interval!.low).toBeLessThan(r.score);
  expect(r.score_interval!.high).toBeGreaterThan(r.score);
  expect(r.evidence.reduce((s, e) => s + e.contribution, 0)).toBeCloseTo(r.logit, 9);
}

/** Without labels the weights are independent, each as uncertain as its prior: √(Σ x² sd²) over the row's inputs. */
function priorSd(r: PageRow): number {
  const x = new Map<string, number>();
  for (const e of unpackEvidence(r.evidence) as unknown as StoredEvidence[]) x.set(e.key, (x.get(e.key) ?? 0) + e.x);
  return Math.sqrt([...x].reduce((v, [key, value]) => v + (value * priorOf(key).sd) ** 2, 0));
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// The score's uncertainty on every account row, REST and MCP, list and detail: the posterior
// spread of its logit kept with the ranking, shown as a 90% interval of the score.
for (const d of dialects) {
  describe.skipIf(d.skip)(`score intervals on ${d.label}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: { read: 1000, write: 1000, report: 5 } });
      await seedSixtyStores(h.db);
    });
    afterAll(async () => h?.close());

    const refresh = (ws: Workspace) => refreshWorkspace(h.db, ws.id, h.clock.now());
    const list = async (key: string): Promise<Row[]> => {
      const r = await call(h.base, 'GET', '/accounts?filter=all&limit=100', { key });
      expect(r.status).toBe(200);
      return r.body.data;
    };

    it('gives every row of the list and the detail a 90% interval holding its score, as wide as the prior before any outcome', async () => {
      const ws = await workspace(h.db);
      await refresh(ws);
      const key = await apiKey(h.db, ws.id, ['read:accounts']);
      const rows = await list(key);
      expect(rows).toHaveLength(60);
      for (const r of rows) expectInterval(r);
      for (const r of await currentRows(h.db.kysely, ws.id)) expect(Number(r.logit_sd)).toBeCloseTo(priorSd(r), 9);
      const detail = await call(h.base, 'GET', '/accounts/st05', { key });
      expect(detail.status).toBe(200);
      expectInterval(detail.body);
      expect(detail.body.score_interval).toEqual(rows.find((r) => r.store_id === 'st05')!.score_interval);

      const c = await mcpClient(h.base, { key });
      try {
        const listed = toolJson(await c.client.callTool({ name: 'list_accounts', arguments: { filter: 'all', limit: 100 } }));
        expect(listed.data.map((r: Row) => [r.store_id, r.logit_sd, r.score_interval])).toEqual(rows.map((r) => [r.store_id, r.logit_sd, r.score_interval]));
        const one = toolJson(await c.client.callTool({ name: 'get_account', arguments: { store_id: 'st05' } }));
        expect(one.score_interval).toEqual(detail.body.score_interval);
      } finally {
        await c.close();
      }
    });

    it('narrows the intervals once outcomes are recorded, most for accounts like the labelled ones', async () => {
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:outcomes']);
      await refresh(ws);
      const before = new Map((await list(key)).map((r) => [r.store_id, r]));
      // Outcomes of beauty stores only (the even ones): two won, one lost, and so on.
      const labelled = new Set<string>();
      for (let i = 0; i < 36; i += 2) {
        const store_id = `st${String(i).padStart(2, '0')}`;
        const body = i % 3 === 0 ? { store_id, action: 'won' } : { store_id, action: 'lost', lost_reason: 'timing' };
        expect((await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body })).status).toBe(200);
        labelled.add(store_id);
        h.clock.advance(1000);
      }
      expect(await refresh(ws)).toMatchObject({ refreshed: true, labels: 18 });
      const after = await list(key);
      for (const r of after) {
        expectInterval(r);
        // Labels only add to the posterior's precision: no row's spread grows.
        expect(r.logit_sd!).toBeLessThanOrEqual(before.get(r.store_id)!.logit_sd! + 1e-12);
      }
      const width = (r: Row) => r.score_interval!.high - r.score_interval!.low;
      const unlabelled = (category: 'beauty' | 'toys', rows: Iterable<Row>) =>
        [...rows].filter((r) => !labelled.has(r.store_id) && Number(r.store_id.slice(2)) % 2 === (category === 'beauty' ? 0 : 1));
      const shrink = (category: 'beauty' | 'toys', f: (r: Row) => number) => mean(unlabelled(category, after).map(f)) / mean(unlabelled(category, before.values()).map(f));
      // The unlabelled beauty stores share every input with the labelled ones: their spread narrows most.
      expect(shrink('beauty', (r) => r.logit_sd!)).toBeLessThan(0.8);
      expect(shrink('beauty', (r) => r.logit_sd!)).toBeLessThan(shrink('toys', (r) => r.logit_sd!));
      expect(shrink('beauty', width)).toBeLessThan(1);
    });

    it('shows no interval for an imported score, and keeps the intervals of the rows an import leaves alone', async () => {
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, ['read:accounts']);
      await seedAccounts(h.db, ws.id, [
        { store_id: 'imported-a', score: 0.9 },
        { store_id: 'imported-b', score: 0.4, model_version: 0 },
      ]);
      const imported = await list(key);
      expect(imported.map((r) => [r.store_id, r.logit_sd, r.score_interval])).toEqual([
        ['imported-a', null, null],
        ['imported-b', null, null],
      ]);
      const detail = await call(h.base, 'GET', '/accounts/imported-b', { key });
      expect(detail.body).toMatchObject({ score: 0.4, logit_sd: null, score_interval: null });

      const scored = await workspace(h.db);
      const scoredKey = await apiKey(h.db, scored.id, ['read:accounts']);
      await refresh(scored);
      const ranked = new Map((await list(scoredKey)).map((r) => [r.store_id, r]));
      await seedAccounts(h.db, scored.id, [{ store_id: 'st07', score: 0.99 }]);
      for (const r of await list(scoredKey)) {
        if (r.store_id === 'st07') expect(r).toMatchObject({ score: 0.99, logit_sd: null, score_interval: null });
        else expect([r.logit_sd, r.score_interval]).toEqual([ranked.get(r.store_id)!.logit_sd, ranked.get(r.store_id)!.score_interval]);
      }
    });
  });
}
