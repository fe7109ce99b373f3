import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { EXPLORE_SHARE, IN_MARKET_MIN_SCORE, IN_MARKET_QUANTILE, MIN_EXPLORE, scoreOrder, selectInMarketColumns } from '../../src/accounts/in-market.js';
import { selectInMarket } from '../helpers/in-market-rows.js';
import { rowsEvidence } from '../../src/accounts/evidence.js';
import { listEvents } from '../../src/webhooks/outbox.js';
import { insertOutcome } from '../../src/accounts/outcomes-store.js';
import { newId } from '../../src/db/ids.js';
import type { Db } from '../../src/compose/database.js';
import type { DealStage } from '../../src/core/deal-stages.js';
import { workspace } from '../helpers/api.js';
import { currentRows } from '../../src/accounts/ranking-reads.js';
import { dialects, freshDb, type TestDb, useFreshDb } from '../helpers/db.js';
import { seedRun, type SeedSignal as SignalRow, type SeedStore as StoreRow } from '../helpers/accounts.js';

const NOW = new Date('2026-11-01T00:00:00Z');

async function record(db: Db, wsId: string, storeId: string, action: DealStage) {
  await db.write((trx) =>
    insertOutcome(trx, {
      id: newId('out'), workspace_id: wsId, api_key_id: 'key_test', store_id: storeId, action, value: null, occurred_at: null, note: null,
      lost_reason: action === 'lost' ? 'not_a_fit' : null, lost_reason_other: null, recorded_at: new Date().toISOString(),
    }),
  );
}

const accounts = (db: Db, wsId: string) => currentRows(db.kysely, wsId);

/** 120 stores in two categories that differ in nothing else, every one with a fresh signal. */
function twoKinds(): { stores: StoreRow[]; signals: SignalRow[] } {
  const stores: StoreRow[] = [];
  const signals: SignalRow[] = [];
  for (let i = 0; i < 120; i++) {
    const id = `s${String(i).padStart(3, '0')}`;
    stores.push({ store_id: id, country: i % 3 === 0 ? 'US' : 'GB', category: i % 2 === 0 ? 'beauty' : 'toys', plan: 'grow', monthly_visits: 1000 + i, apps: ['klaviyo'], ads: i % 4 === 0 ? ['meta'] : [] });
    signals.push({ store_id: id, type: i % 5 === 0 ? 'ad_channel_started' : 'app_installed', subject: 'x', strength: 1, detail: 'Did something' });
  }
  return { stores, signals };
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`account refresh on ${d.label}`, () => {
    let t: TestDb;
    let db: Db;
    beforeAll(async () => {
      t = await freshDb(d.name);
      db = t.db;
      const { stores, signals } = twoKinds();
      await seedRun(db, '2026-09', 'run-2026-09', stores, []);
      await seedRun(db, '2026-10', 'run-2026-10', stores, signals);
    });
    afterAll(async () => t?.cleanup());

    it('scores every visible store, and each row\'s contributions (intercept included) add up to its logit', async () => {
      const ws = await workspace(db);
      const r = await refreshWorkspace(db, ws.id, NOW);
      expect(r).toMatchObject({ refreshed: true, model_version: 1, accounts: 120 });
      const rows = await accounts(db, ws.id);
      expect(rows).toHaveLength(120);
      const shown = await rowsEvidence(db.kysely, ws.id, rows);
      for (const [k, row] of rows.entries()) {
        const evidence = shown[k] as { kind: string; contribution: number; detail: string }[];
        expect(evidence[0].kind).toBe('intercept');
        expect(evidence.reduce((s, e) => s + e.contribution, 0)).toBeCloseTo(row.logit, 9);
        expect(row.score).toBeCloseTo(1 / (1 + Math.exp(-row.logit)), 12);
        expect(evidence.every((e) => e.detail.length > 0)).toBe(true);
      }
      // Nothing moved: the next refresh is skipped and the version stays.
      expect(await refreshWorkspace(db, ws.id, NOW)).toMatchObject({ refreshed: false, model_version: 1 });
    });

    it('learns from outcomes: won beauty stores and lost toy stores lift the unlabelled beauty stores', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, NOW);
      const mean = async (category: string, skip: Set<string>) => {
        const rows = (await accounts(db, ws.id)).filter((a) => a.category === category && !skip.has(a.store_id));
        return rows.reduce((s, a) => s + a.logit, 0) / rows.length;
      };
      const labelled = new Set<string>();
      for (let i = 0; i < 40; i += 2) {
        const id = `s${String(i).padStart(3, '0')}`; // beauty
        const other = `s${String(i + 1).padStart(3, '0')}`; // toys
        await record(db, ws.id, id, 'won');
        await record(db, ws.id, other, 'lost');
        labelled.add(id).add(other);
      }
      const gapBefore = (await mean('beauty', labelled)) - (await mean('toys', labelled));
      const r = await refreshWorkspace(db, ws.id, NOW);
      expect(r).toMatchObject({ refreshed: true, model_version: 2, labels: 40 });
      const gapAfter = (await mean('beauty', labelled)) - (await mean('toys', labelled));
      expect(Math.abs(gapBefore)).toBeLessThan(0.2);
      expect(gapAfter).toBeGreaterThan(gapBefore + 0.5);
      const rows = await accounts(db, ws.id);
      expect(new Set(rows.map((a) => a.model_version))).toEqual(new Set([2]));
    });

    it('shows a workspace only the stores its profile matches, and never leaks labels between workspaces', async () => {
      const a = await workspace(db);
      const b = await workspace(db);
      await db.kysely.insertInto('workspace_profiles').values({ workspace_id: a.id, profile: JSON.stringify({ countries: ['US'] }), updated_at: NOW.toISOString() }).execute();
      for (let i = 0; i < 30; i += 3) await record(db, a.id, `s${String(i).padStart(3, '0')}`, 'lost');
      await refreshWorkspace(db, a.id, NOW);
      await refreshWorkspace(db, b.id, NOW);
      const rowsA = await accounts(db, a.id);
      const rowsB = await accounts(db, b.id);
      expect(rowsA.length).toBe(40);
      expect(rowsA.every((r) => r.country === 'US')).toBe(true);
      expect(rowsB.length).toBe(120);
      const model = async (id: string) => (await db.kysely.selectFrom('workspace_models').selectAll().where('workspace_id', '=', id).executeTakeFirstOrThrow()).labels;
      expect(await model(a.id)).toBe(10);
      expect(await model(b.id)).toBe(0);
      // Widening the profile makes the other stores visible on the next refresh; narrowing removes them.
      await db.kysely.updateTable('workspace_profiles').set({ profile: JSON.stringify({ countries: ['GB'] }), updated_at: '2026-11-02T00:00:00Z' }).where('workspace_id', '=', a.id).execute();
      await refreshWorkspace(db, a.id, NOW);
      const now = await accounts(db, a.id);
      expect(now.length).toBe(80);
      expect(now.every((r) => r.country === 'GB')).toBe(true);
    });

    it('writes store.entered for the in-market list, store.exited when an account leaves it, and nothing when the change fails', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, NOW);
      const inMarket = (await accounts(db, ws.id)).filter((a) => a.in_market === 1);
      expect(inMarket.length).toBeGreaterThan(0);
      const events = await listEvents(db.kysely, ws.id);
      expect(events.filter((e) => e.type === 'store.entered').map((e) => e.data.store_id).sort()).toEqual(inMarket.map((a) => a.store_id).sort());
      expect(events.every((e) => e.data.model_version === 1)).toBe(true);

      // A failed re-scoring writes no event (the outbox commits with the change or not at all).
      const first = inMarket[0].store_id;
      await db.kysely.insertInto('account_statuses').values({ id: newId('ast'), workspace_id: ws.id, store_id: first, status: 'disqualified', note: null, actor: 'key:test', created_at: '2026-11-01T01:00:00Z' }).execute();
      await db.kysely.updateTable('accounts').set({ status: 'disqualified' }).where('workspace_id', '=', ws.id).where('store_id', '=', first).execute();
      const failing: Db = { ...db, write: (fn) => db.write(async (trx) => { await fn(trx); throw new Error('disk full'); }) };
      await expect(refreshWorkspace(failing, ws.id, NOW)).rejects.toThrow('disk full');
      expect(await listEvents(db.kysely, ws.id)).toHaveLength(events.length);

      await refreshWorkspace(db, ws.id, NOW);
      const after = await listEvents(db.kysely, ws.id);
      const exited = after.filter((e) => e.type === 'store.exited');
      expect(exited.map((e) => e.data.store_id)).toContain(first);
      expect(exited.every((e) => e.data.model_version === 2)).toBe(true);
      const row = (await accounts(db, ws.id)).find((a) => a.store_id === first)!;
      expect(row.in_market).toBe(0);
      expect(row.status).toBe('disqualified');
    });

    it('reserves a share of the in-market list (at least MIN_EXPLORE rows) for marked exploration rows', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, NOW);
      const rows = await accounts(db, ws.id);
      const listed = rows.filter((a) => a.in_market === 1);
      const explore = listed.filter((a) => a.explore === 1);
      expect(explore.length).toBeGreaterThan(0);
      const share = Math.round(((listed.length - explore.length) * EXPLORE_SHARE) / (1 - EXPLORE_SHARE));
      expect(explore.length).toBe(Math.max(MIN_EXPLORE, share));
    });
  });
}

describe('selectInMarket', () => {
  it('keeps ineligible accounts out, takes the top fifth, and draws exploration only from unlabelled eligible rows', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ store_id: `s${i}`, score: i / 100, eligible: i % 10 !== 9, labelled: i < 20 }));
    const { inMarket, explore, threshold } = selectInMarket(rows);
    expect(threshold).toBe(0.8);
    for (const id of inMarket) {
      const r = rows.find((x) => x.store_id === id)!;
      expect(r.eligible).toBe(true);
      if (!explore.has(id)) expect(r.score).toBeGreaterThanOrEqual(0.8);
      else expect(r.labelled).toBe(false);
    }
    expect(explore.size).toBe(Math.max(MIN_EXPLORE, Math.round((18 * EXPLORE_SHARE) / (1 - EXPLORE_SHARE))));
  });

  it("sets the threshold at the top fifth's score, read from the score order, whatever ties, signs and NaN the scores hold", () => {
    const cases = [
      Float64Array.from({ length: 1_000 }, (_, i) => Math.round(Math.sin(i) * 20) / 20 + 0.5),
      Float64Array.from({ length: 999 }, (_, i) => (i % 7 === 0 ? -0 : i % 5 === 0 ? 0 : 0.9 - (i % 13) / 100)),
      Float64Array.from({ length: 500 }, (_, i) => (i % 50 === 0 ? Number.NaN : 0.3 + (i % 17) / 40)),
      Float64Array.from([0.7]),
    ];
    for (const score of cases) {
      const n = score.length;
      const sorted = Float64Array.from(score).sort();
      const expected = Math.max(IN_MARKET_MIN_SCORE, sorted[Math.min(n - 1, Math.floor(IN_MARKET_QUANTILE * n))]);
      const c = { score, logit: new Float64Array(n), sd: new Float64Array(n), eligible: new Uint8Array(n).fill(1), labelled: new Uint8Array(n) };
      expect(selectInMarketColumns(c, scoreOrder(score), EXPLORE_SHARE).threshold).toBe(expected);
    }
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`store.signal on ${d.label}`, () => {
    const db = useFreshDb(d.name);

    it('announces a signal that is new, not an older one that moves up into the ten an account shows', async () => {
      const stores: StoreRow[] = Array.from({ length: 40 }, (_, i) => ({
        store_id: `m${String(i).padStart(2, '0')}`, country: 'US', category: i % 2 ? 'beauty' : 'toys', plan: 'grow', monthly_visits: 1000 + i, apps: [], ads: [],
      }));
      const twelve = (subjects: string[]): SignalRow[] =>
        stores.flatMap((s) => subjects.map((subject) => ({ store_id: s.store_id, type: 'app_installed' as const, subject, strength: 1, detail: `Installed ${subject}` })));
      const apps = 'abcdefghijkl'.split('').map((c) => `app-${c}`);
      await seedRun(db(), '2026-09', 'sig-09', stores, []);
      await seedRun(db(), '2026-10', 'sig-10', stores, twelve(apps));
      const ws = await workspace(db());
      await refreshWorkspace(db(), ws.id, NOW);
      const signalsOf = async () => (await listEvents(db().kysely, ws.id)).filter((e) => e.type === 'store.signal');
      expect(await signalsOf()).toHaveLength(0);

      // A correction of October drops the signal each account shows first: an older one moves up into its ten.
      const shown = JSON.parse((await accounts(db(), ws.id))[0].signals) as { subject: string }[];
      await seedRun(db(), '2026-10', 'sig-10b', stores, twelve(apps.filter((a) => a !== shown[0].subject)));
      expect(await refreshWorkspace(db(), ws.id, NOW)).toMatchObject({ refreshed: true });
      expect(await signalsOf()).toHaveLength(0);

      // A new month brings a new signal: every in-market account announces it.
      await seedRun(db(), '2026-11', 'sig-11', stores, stores.map((s) => ({ store_id: s.store_id, type: 'ad_channel_started' as const, subject: 'tiktok', strength: 1, detail: 'Started advertising on TikTok' })));
      await refreshWorkspace(db(), ws.id, NOW);
      const inMarket = (await accounts(db(), ws.id)).filter((a) => a.in_market === 1).map((a) => a.store_id);
      const announced = await signalsOf();
      expect(announced.length).toBeGreaterThan(0);
      expect(announced.every((e) => (e.data.signal as { type: string }).type === 'ad_channel_started')).toBe(true);
      expect(announced.map((e) => e.data.store_id).every((id) => inMarket.includes(id as string))).toBe(true);
    });
  });
}
