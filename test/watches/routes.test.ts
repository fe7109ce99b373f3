/**
 * The watch operations over a real socket: health derived from hand-built panels for each rule,
 * one `watch.health_changed` event per transition and none on a re-check, the managed watch's
 * resize and cancel, CRUD and pagination, receipts, the brief (JSON and markdown), and what
 * another workspace or a key without the scope can do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEvents } from '../../src/webhooks/outbox.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { evaluateWatches } from '../../src/watches/evaluate.js';
import { insertWatch } from '../../src/watches/store.js';
import { WATCHES_MAX } from '../../src/watches/types.js';
import { seedAccounts, seedRun, steadyStore } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';
import { WORKING } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';
const LIMITS = { read: 100_000, write: 100_000, report: 100_000 };

const WATCH_OPS = [
  'get_managed_watch',
  'resize_managed_watch',
  'cancel_managed_watch',
  'list_watches',
  'add_watch',
  'get_watch',
  'remove_watch',
  'list_watch_stores',
  'add_watch_stores',
  'remove_watch_store',
  'list_watch_events',
  'list_watch_receipts',
  'get_watch_brief',
] as const;

const store = steadyStore;

const STORES = ['ok', 'closed', 'absent', 'traffic', 'revenue', 'ads', 'flip', 'spare'];

for (const d of dialects) {
  describe.skipIf(d.skip)(`watch operations on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;
    let other: Workspace;
    let read: string;
    let write: string;
    let otherWrite: string;
    let accountsOnly: string;
    const watchOf: Record<string, string> = {};

    const add = async (body: unknown, key = write) => call(h.base, 'POST', '/watches', { key, idem: freshIdem(), body });
    const get = async (id: string, key = read) => call(h.base, 'GET', `/watches/${id}`, { key });
    const healthEvents = async (workspaceId: string, watchId: string) =>
      (await listEvents(h.db.kysely, workspaceId)).filter((e) => e.type === 'watch.health_changed' && e.data.watch_id === watchId).map((e) => e.data);
    const receipts = async (id: string) => (await call(h.base, 'GET', `/watches/${id}/receipts`, { key: read })).body.data as { month: string; run_id: string; store_ids: string[]; health: string }[];

    beforeAll(async () => {
      h = await startApi(d.name, { operations: { ...WORKING, ...Object.fromEntries(WATCH_OPS.map((op) => [op, 'available'])) }, rateLimits: LIMITS });
      h.clock.set('2026-03-05T10:00:00.000Z');
      ws = await workspace(h.db);
      other = await workspace(h.db);
      read = await apiKey(h.db, ws.id, ['read:watch']);
      write = await apiKey(h.db, ws.id, ['read:watch', 'write:watch']);
      otherWrite = await apiKey(h.db, other.id, ['read:watch', 'write:watch']);
      accountsOnly = await apiKey(h.db, ws.id, ['read:accounts']);
      // The workspace sees every store; the other workspace sees only "spare".
      await seedAccounts(
        h.db,
        ws.id,
        STORES.map((s, k) => ({ store_id: s, score: 0.9 - k * 0.05, in_market: k < 3 })),
      );
      await seedAccounts(h.db, other.id, [{ store_id: 'spare', score: 0.5 }]);
      // January: every store present and steady.
      await seedRun(h.db, '2026-01', 'run-jan', STORES.map((s) => store(s)), []);
      // February: one rule per store.
      await seedRun(
        h.db,
        '2026-02',
        'run-feb',
        [
          store('ok'),
          store('traffic', { monthly_visits: 5_000 }),
          store('revenue', { est_monthly_revenue_usd: 9_000 }),
          store('ads', { ads: [] }),
          store('flip'),
          store('spare'),
        ],
        [
          { store_id: 'closed', type: 'store_closed', strength: 1, detail: 'No longer in the panel in 2026-02 (present the month before)' },
          { store_id: 'traffic', type: 'traffic_down', strength: 0.5, detail: 'Monthly visits down 50% (10,000 → 5,000)' },
          { store_id: 'ads', type: 'ad_channel_stopped', subject: 'meta', strength: 1, detail: 'Stopped advertising on Meta' },
          { store_id: 'ok', type: 'app_installed', subject: 'klaviyo', strength: 1, detail: 'Installed klaviyo' },
        ],
      );
      for (const s of ['ok', 'closed', 'absent', 'traffic', 'revenue', 'ads', 'flip']) {
        const r = await add({ type: 'self_directed', store_ids: [s] });
        expect(r.status).toBe(201);
        watchOf[s] = r.body.id;
      }
    });
    afterAll(async () => {
      await h?.close();
    });

    it('starts a watch healthy and unchecked, holding the stores it was given', async () => {
      const r = await get(watchOf.ok!);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ object: 'watch', type: 'self_directed', client_name: null, capacity: null, status: 'active', store_count: 1, health: 'healthy', checked_month: null });
      expect(r.body.health_reason).toBe('Not checked yet');
    });

    it('derives each health rule from the latest month of the panel', async () => {
      const first = await evaluateWatches(h.db, h.clock.now());
      expect(first.checked).toBe(7);
      const health = async (s: string) => {
        const b = (await get(watchOf[s]!)).body;
        return [b.health, b.health_reason, b.checked_month];
      };
      expect(await health('ok')).toEqual(['healthy', 'The watched store is in the panel in 2026-02, with no sharp fall and no stopped ad channel', '2026-02']);
      expect(await health('closed')).toEqual(['failing', 'closed: No longer in the panel in 2026-02 (present the month before)', '2026-02']);
      expect(await health('absent')).toEqual(['failing', 'absent: Not in the panel in 2026-02', '2026-02']);
      expect(await health('traffic')).toEqual(['degraded', 'traffic: Monthly visits down 50% (10,000 → 5,000)', '2026-02']);
      expect(await health('revenue')).toEqual(['degraded', 'revenue: Estimated monthly revenue down 55% ($20,000 → $9,000)', '2026-02']);
      expect(await health('ads')).toEqual(['degraded', 'ads: Stopped advertising on Meta', '2026-02']);
      // The worst finding decides a watch holding several stores.
      const mixed = await add({ type: 'client', client_name: 'Acme Agency', store_ids: ['ok', 'traffic', 'closed'] });
      await evaluateWatches(h.db, h.clock.now());
      expect((await get(mixed.body.id)).body).toMatchObject({ type: 'client', client_name: 'Acme Agency', health: 'failing', health_reason: 'closed: No longer in the panel in 2026-02 (present the month before)' });
      await call(h.base, 'DELETE', `/watches/${mixed.body.id}`, { key: write, idem: freshIdem() });
    });

    it('emits exactly one watch.health_changed per transition, and nothing when re-checked', async () => {
      expect(await healthEvents(ws.id, watchOf.ok!)).toEqual([]);
      expect(await healthEvents(ws.id, watchOf.traffic!)).toEqual([
        { watch_id: watchOf.traffic, from: 'healthy', to: 'degraded', reason: 'traffic: Monthly visits down 50% (10,000 → 5,000)' },
      ]);
      expect(await healthEvents(ws.id, watchOf.closed!)).toEqual([
        { watch_id: watchOf.closed, from: 'healthy', to: 'failing', reason: 'closed: No longer in the panel in 2026-02 (present the month before)' },
      ]);
      const outbox = (await listEvents(h.db.kysely, ws.id)).length;
      const before = await receipts(watchOf.flip!);
      expect(await evaluateWatches(h.db, h.clock.now())).toEqual({ checked: 0, changed: 0 });
      expect((await listEvents(h.db.kysely, ws.id)).length).toBe(outbox);
      expect(await receipts(watchOf.flip!)).toEqual(before);

      // March: "flip" loses traffic (healthy → degraded); April: it is gone (degraded → failing).
      await seedRun(h.db, '2026-03', 'run-mar', [store('ok'), store('flip', { monthly_visits: 2_000 })], [
        { store_id: 'flip', type: 'traffic_down', strength: 0.8, detail: 'Monthly visits down 80% (10,000 → 2,000)' },
      ]);
      await evaluateWatches(h.db, h.clock.now());
      expect(await evaluateWatches(h.db, h.clock.now())).toEqual({ checked: 0, changed: 0 });
      await seedRun(h.db, '2026-04', 'run-apr', [store('ok')], []);
      h.clock.set('2026-05-02T09:00:00.000Z');
      await evaluateWatches(h.db, h.clock.now());
      expect(await healthEvents(ws.id, watchOf.flip!)).toEqual([
        { watch_id: watchOf.flip, from: 'healthy', to: 'degraded', reason: 'flip: Monthly visits down 80% (10,000 → 2,000)' },
        { watch_id: watchOf.flip, from: 'degraded', to: 'failing', reason: 'flip: Not in the panel in 2026-04' },
      ]);
      // "ok" is in April's panel: it stays healthy, with no event at all.
      expect((await get(watchOf.ok!)).body).toMatchObject({ health: 'healthy', checked_month: '2026-04' });
      expect(await healthEvents(ws.id, watchOf.ok!)).toEqual([]);
    });

    it('fails every watch when the latest data is more than two months old', async () => {
      h.clock.set('2026-07-01T00:00:00.000Z');
      await evaluateWatches(h.db, h.clock.now());
      const b = (await get(watchOf.ok!)).body;
      expect(b.health).toBe('failing');
      expect(b.health_reason).toBe('The latest data is for 2026-04, 3 months before 2026-07');
      expect(await healthEvents(ws.id, watchOf.ok!)).toEqual([{ watch_id: watchOf.ok, from: 'healthy', to: 'failing', reason: b.health_reason }]);
      h.clock.set('2026-06-01T00:00:00.000Z');
      await evaluateWatches(h.db, h.clock.now());
      expect((await get(watchOf.ok!)).body.health).toBe('healthy');
      expect(await healthEvents(ws.id, watchOf.ok!)).toHaveLength(2);
    });

    it('records a receipt per check: month, run id and the stores checked', async () => {
      const r = await receipts(watchOf.flip!);
      // Feb, Mar, Apr (May re-check: staleness moved the generation), Jul and Jun checks; newest first.
      expect(r[0]).toMatchObject({ month: '2026-04', run_id: 'run-apr', store_ids: ['flip'], health: 'failing' });
      expect(r.map((x) => x.month)).toContain('2026-03');
      expect(r[r.length - 1]).toMatchObject({ month: '2026-02', run_id: 'run-feb', store_ids: ['flip'], health: 'healthy' });
      const page1 = await call(h.base, 'GET', `/watches/${watchOf.flip}/receipts?limit=2`, { key: read });
      expect(page1.body.data).toHaveLength(2);
      const page2 = await call(h.base, 'GET', `/watches/${watchOf.flip}/receipts?limit=100&cursor=${encodeURIComponent(page1.body.next_cursor)}`, { key: read });
      expect([...page1.body.data, ...page2.body.data].map((x: { id: string }) => x.id)).toEqual((await call(h.base, 'GET', `/watches/${watchOf.flip}/receipts`, { key: read })).body.data.map((x: { id: string }) => x.id));
      expect(page2.body.next_cursor).toBeNull();
    });

    it("lists a watch's events per store and month, newest month first, paged", async () => {
      const all = (await call(h.base, 'GET', `/watches/${watchOf.flip}/events?limit=200`, { key: read })).body.data;
      expect(all.map((e: { month: string; kind: string }) => `${e.month} ${e.kind}`)).toEqual(
        expect.arrayContaining(['2026-04 store_absent', '2026-04 health_changed', '2026-03 traffic_down', '2026-03 health_changed']),
      );
      const months = all.map((e: { month: string }) => e.month);
      expect(months).toEqual([...months].sort().reverse());
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const r = await call(h.base, 'GET', `/watches/${watchOf.flip}/events?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: read });
        expect(r.status).toBe(200);
        seen.push(...r.body.data.map((e: { id: string }) => e.id));
        cursor = r.body.next_cursor;
      } while (cursor);
      expect(seen).toEqual(all.map((e: { id: string }) => e.id));
      const tampered = await call(h.base, 'GET', `/watches/${watchOf.flip}/events?cursor=abc.def`, { key: read });
      expect(tampered.status).toBe(400);
      expect(tampered.body.type).toBe(`${PROBLEM}invalid-cursor`);
    });

    it('writes a brief of the latest month as JSON and as markdown', async () => {
      const w = await add({ type: 'client', client_name: 'Shop *Co*', store_ids: ['ok', 'traffic', 'ads'] });
      // Back to February's view: a brief of a month with changes.
      const t = h.t.db;
      await t.write((trx) => trx.deleteFrom('ingested_months').where('month', '>', '2026-02').execute());
      h.clock.set('2026-03-05T10:00:00.000Z');
      await evaluateWatches(h.db, h.clock.now());
      const json = await call(h.base, 'GET', `/watches/${w.body.id}/brief`, { key: read });
      expect(json.status).toBe(200);
      expect(json.body).toMatchObject({ object: 'watch_brief', watch_id: w.body.id, type: 'client', client_name: 'Shop *Co*', month: '2026-02', run_id: 'run-feb', stores_checked: 3, health: 'degraded' });
      expect(json.body.summary).toMatch(/^In 2026-02, 3 watched stores checked: 3 changes in 3 stores, 2 concerns\. Health: degraded/);
      expect(json.body.changes).toEqual([
        { store_id: 'ads', domain: 'ads.example', kind: 'ad_channel_stopped', level: 'degraded', detail: 'Stopped advertising on Meta' },
        { store_id: 'ok', domain: 'ok.example', kind: 'app_installed', level: 'healthy', detail: 'Installed klaviyo' },
        { store_id: 'traffic', domain: 'traffic.example', kind: 'traffic_down', level: 'degraded', detail: 'Monthly visits down 50% (10,000 → 5,000)' },
      ]);
      const md = await call(h.base, 'GET', `/watches/${w.body.id}/brief?format=markdown`, { key: read });
      expect(md.status).toBe(200);
      expect(md.contentType).toBe('text/markdown; charset=utf-8');
      expect(md.body).toContain('# Client watch for Shop \\*Co\\* — 2026-02');
      expect(md.body).toContain('- **traffic** (traffic.example): Monthly visits down 50% (10,000 → 5,000) _[degraded]_');
      expect(md.body).toContain('- **ok** (ok.example): Installed klaviyo\n');
      const byAccept = await call(h.base, 'GET', `/watches/${w.body.id}/brief`, { key: read, headers: { accept: 'text/markdown' } });
      expect(byAccept.contentType).toBe('text/markdown; charset=utf-8');
      expect(byAccept.body).toBe(md.body);
      // Weights count (RFC 9110 §12.5.1): markdown refused (q=0) or less preferred than JSON ⇒ JSON.
      for (const accept of ['text/markdown;q=0, application/json', 'application/json, text/markdown;q=0.1']) {
        const r = await call(h.base, 'GET', `/watches/${w.body.id}/brief`, { key: read, headers: { accept } });
        expect([accept, r.contentType]).toEqual([accept, 'application/json; charset=utf-8']);
      }
      const unchecked = await add({ type: 'self_directed', store_ids: ['ok'] });
      const none = await call(h.base, 'GET', `/watches/${unchecked.body.id}/brief`, { key: read });
      expect(none.body).toMatchObject({ month: null, run_id: null, stores_checked: 0, changes: [] });
      expect((await call(h.base, 'GET', `/watches/${w.body.id}/brief?format=pdf`, { key: read })).status).toBe(400);
    });

    it('leaves a store the watch no longer holds out of the brief of the month it was checked in', async () => {
      const w = await add({ type: 'client', client_name: 'Trimmed', store_ids: ['ok', 'traffic', 'ads'] });
      await evaluateWatches(h.db, h.clock.now());
      const removed = await call(h.base, 'DELETE', `/watches/${w.body.id}/stores/traffic`, { key: write, idem: freshIdem() });
      expect(removed.status).toBe(200);
      await evaluateWatches(h.db, h.clock.now());
      // February is checked again with two stores; traffic's fall in February is no change of this watch.
      const json = (await call(h.base, 'GET', `/watches/${w.body.id}/brief`, { key: read })).body;
      expect(json).toMatchObject({ month: '2026-02', stores_checked: 2 });
      expect(json.changes.map((c: { store_id: string }) => c.store_id)).toEqual(['ads', 'ok']);
      expect(json.summary).toMatch(/^In 2026-02, 2 watched stores checked: 2 changes in 2 stores, 1 concern\. /);
      const md = (await call(h.base, 'GET', `/watches/${w.body.id}/brief?format=markdown`, { key: read })).body;
      expect(md).not.toContain('**traffic**');
    });

    it('resizes, cancels (paused, one event) and restarts the managed watch over the in-market accounts', async () => {
      const none = await call(h.base, 'GET', '/watch/managed', { key: read });
      expect(none.body).toMatchObject({ object: 'managed_watch', id: null, status: 'none', capacity: 0, in_market_accounts: 3 });
      expect((await call(h.base, 'POST', '/watch/managed/cancel', { key: write, idem: freshIdem() })).status).toBe(404);
      const started = await call(h.base, 'PATCH', '/watch/managed', { key: write, idem: freshIdem(), body: { capacity: 2 } });
      expect(started.status).toBe(200);
      expect(started.body).toMatchObject({ status: 'active', capacity: 2, store_count: 2, health: 'healthy' });
      const id = started.body.id as string;
      const stores = await call(h.base, 'GET', `/watches/${id}/stores`, { key: read });
      expect(stores.body.data.map((s: { store_id: string }) => s.store_id)).toEqual(['ok', 'closed']);
      await evaluateWatches(h.db, h.clock.now());
      let m = (await call(h.base, 'GET', '/watch/managed', { key: read })).body;
      // "closed" is one of the two best in-market accounts: failing wins over capacity exceeded.
      expect(m).toMatchObject({ health: 'failing', health_reason: 'closed: No longer in the panel in 2026-02 (present the month before)' });
      expect(m.recent_events.map((e: { kind: string }) => e.kind)).toContain('capacity_exceeded');
      expect(m.latest_brief_url).toBe(`/api/v1/watches/${id}/brief`);
      // Capacity 3 holds all three in-market accounts (still failing: "closed" is one of them).
      await call(h.base, 'PATCH', '/watch/managed', { key: write, idem: freshIdem(), body: { capacity: 3 } });
      await evaluateWatches(h.db, h.clock.now());
      m = (await call(h.base, 'GET', '/watch/managed', { key: read })).body;
      expect(m).toMatchObject({ capacity: 3, store_count: 3, health: 'failing' });
      expect((await receipts(id))[0]!.store_ids).toEqual(['ok', 'closed', 'absent']);

      const cancelled = await call(h.base, 'POST', '/watch/managed/cancel', { key: write, idem: freshIdem() });
      expect(cancelled.body).toMatchObject({ status: 'cancelled', health: 'paused', health_reason: 'Cancelled' });
      await call(h.base, 'POST', '/watch/managed/cancel', { key: write, idem: freshIdem() });
      expect(await evaluateWatches(h.db, h.clock.now())).toEqual({ checked: 0, changed: 0 });
      expect(await healthEvents(ws.id, id)).toEqual([
        { watch_id: id, from: 'healthy', to: 'failing', reason: 'closed: No longer in the panel in 2026-02 (present the month before)' },
        { watch_id: id, from: 'failing', to: 'paused', reason: 'Cancelled' },
      ]);
      const restarted = await call(h.base, 'PATCH', '/watch/managed', { key: write, idem: freshIdem(), body: { capacity: 1 } });
      expect(restarted.body).toMatchObject({ id, status: 'active', capacity: 1, health: 'paused' });
      await evaluateWatches(h.db, h.clock.now());
      expect((await call(h.base, 'GET', '/watch/managed', { key: read })).body).toMatchObject({ health: 'degraded', health_reason: '3 in-market accounts for a capacity of 1: 2 not watched' });
      expect((await healthEvents(ws.id, id)).slice(2)).toEqual([{ watch_id: id, from: 'paused', to: 'degraded', reason: '3 in-market accounts for a capacity of 1: 2 not watched' }]);
      // Its stores follow the ranking: not removable, not added to, not deleted.
      expect((await call(h.base, 'DELETE', `/watches/${id}`, { key: write, idem: freshIdem() })).status).toBe(409);
      expect((await call(h.base, 'POST', `/watches/${id}/stores`, { key: write, idem: freshIdem(), body: { store_ids: ['ok'] } })).status).toBe(409);
      expect((await call(h.base, 'PATCH', '/watch/managed', { key: write, idem: freshIdem(), body: { capacity: 0 } })).status).toBe(400);
    });

    it("refuses a cursor of the managed watch's stores once the ranking moved, rather than repeat or skip stores", async () => {
      const ranked = await workspace(h.db);
      const key = await apiKey(h.db, ranked.id, ['read:watch', 'write:watch']);
      await seedAccounts(h.db, ranked.id, [{ store_id: 'ok', score: 0.9 }, { store_id: 'ads', score: 0.8 }, { store_id: 'flip', score: 0.7 }]);
      const id = (await call(h.base, 'PATCH', '/watch/managed', { key, idem: freshIdem(), body: { capacity: 3 } })).body.id as string;
      const first = await call(h.base, 'GET', `/watches/${id}/stores?limit=2`, { key });
      expect(first.body.data.map((s: { store_id: string }) => s.store_id)).toEqual(['ok', 'ads']);
      const next = `/watches/${id}/stores?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`;
      expect((await call(h.base, 'GET', next, { key })).body.data.map((s: { store_id: string }) => s.store_id)).toEqual(['flip']);
      // A re-ranking puts "flip" first: page 2 of the old order would repeat "ads" and never show "flip".
      await seedAccounts(h.db, ranked.id, [{ store_id: 'flip', score: 0.95 }, { store_id: 'ok', score: 0.9 }, { store_id: 'ads', score: 0.8 }]);
      const stale = await call(h.base, 'GET', next, { key });
      expect(stale.status).toBe(400);
      expect(stale.body.type).toBe(`${PROBLEM}invalid-cursor`);
      const again = await call(h.base, 'GET', `/watches/${id}/stores?limit=2`, { key });
      expect(again.body.data.map((s: { store_id: string }) => s.store_id)).toEqual(['flip', 'ok']);
    });

    it('adds and removes stores, lists them paged, and removes a watch', async () => {
      const w = await add({ type: 'self_directed', store_ids: ['ok', 'ok', 'ads'] });
      expect(w.body.store_count).toBe(2);
      const more = await call(h.base, 'POST', `/watches/${w.body.id}/stores`, { key: write, idem: freshIdem(), body: { store_ids: ['traffic', 'ads', 'revenue'] } });
      expect(more.status).toBe(200);
      expect(more.body.store_count).toBe(4);
      const p1 = await call(h.base, 'GET', `/watches/${w.body.id}/stores?limit=3`, { key: read });
      const p2 = await call(h.base, 'GET', `/watches/${w.body.id}/stores?limit=3&cursor=${encodeURIComponent(p1.body.next_cursor)}`, { key: read });
      expect([...p1.body.data, ...p2.body.data].map((s: { store_id: string }) => s.store_id)).toEqual(['ads', 'ok', 'revenue', 'traffic']);
      expect(p2.body.next_cursor).toBeNull();
      const removed = await call(h.base, 'DELETE', `/watches/${w.body.id}/stores/ok`, { key: write, idem: freshIdem() });
      expect(removed.body.store_count).toBe(3);
      expect((await call(h.base, 'DELETE', `/watches/${w.body.id}/stores/ok`, { key: write, idem: freshIdem() })).status).toBe(404);
      const gone = await call(h.base, 'DELETE', `/watches/${w.body.id}`, { key: write, idem: freshIdem() });
      expect(gone.body).toEqual({ id: w.body.id, object: 'watch', deleted: true });
      expect((await get(w.body.id)).status).toBe(404);
      expect((await call(h.base, 'GET', `/watches/${w.body.id}/events`, { key: read })).status).toBe(404);
    });

    it('refuses stores the workspace cannot see (404 naming them) and adds nothing', async () => {
      const r = await add({ type: 'self_directed', store_ids: ['ok', 'nope', 'also-nope'] });
      expect(r.status).toBe(404);
      expect(r.body.type).toBe(`${PROBLEM}not-found`);
      expect(r.body.store_ids).toEqual(['nope', 'also-nope']);
      expect(r.body.detail).toContain('"nope"');
      // "ok" is the first workspace's account, not the other's.
      const o = await add({ type: 'self_directed', store_ids: ['ok'] }, otherWrite);
      expect(o.status).toBe(404);
      const w = await add({ type: 'self_directed', store_ids: ['spare'] }, otherWrite);
      expect(w.status).toBe(201);
      const addBad = await call(h.base, 'POST', `/watches/${w.body.id}/stores`, { key: otherWrite, idem: freshIdem(), body: { store_ids: ['ok'] } });
      expect(addBad.status).toBe(404);
      expect((await call(h.base, 'GET', '/watches', { key: otherWrite })).body.data.map((x: { id: string }) => x.id)).toEqual([w.body.id]);
    });

    it(`holds at most ${WATCHES_MAX} self-directed and client watches per workspace: one more is 422 and adds nothing`, async () => {
      const full = await workspace(h.db);
      const key = await apiKey(h.db, full.id, ['read:watch', 'write:watch']);
      await h.db.write(async (trx) => {
        for (let i = 1; i < WATCHES_MAX; i++) await insertWatch(trx, { workspace_id: full.id, type: 'client', client_name: `client ${i}`, capacity: null, health: 'healthy', health_reason: 'Not checked yet' }, h.clock.now());
      });
      expect((await call(h.base, 'PATCH', '/watch/managed', { key, idem: freshIdem(), body: { capacity: 5 } })).status).toBe(200);
      const last = await add({ type: 'self_directed' }, key);
      expect(last.status).toBe(201);
      const over = await add({ type: 'client', client_name: 'one too many' }, key);
      expect(over.status).toBe(422);
      expect(over.body.type).toBe(`${PROBLEM}unprocessable`);
      expect(over.body.detail).toContain(`at most ${WATCHES_MAX}`);
      const count = async () => Number((await h.db.kysely.selectFrom('watches').select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', full.id).executeTakeFirstOrThrow()).n);
      expect(await count()).toBe(WATCHES_MAX + 1); // the managed watch is not counted
      expect((await call(h.base, 'DELETE', `/watches/${last.body.id}`, { key, idem: freshIdem() })).status).toBe(200);
      expect((await add({ type: 'self_directed' }, key)).status).toBe(201);
    });

    it('validates the body: client_name only and always for a client watch', async () => {
      const noName = await add({ type: 'client', store_ids: ['ok'] });
      expect(noName.status).toBe(400);
      expect(JSON.stringify(noName.body)).toContain('client_name');
      expect((await add({ type: 'self_directed', client_name: 'x', store_ids: ['ok'] })).status).toBe(400);
      expect((await add({ type: 'managed', store_ids: ['ok'] })).status).toBe(400);
      expect((await add({ type: 'self_directed', store_ids: ['ok'], extra: 1 })).status).toBe(400);
    });

    it('lists watches oldest first, filtered by type, paged', async () => {
      const all = (await call(h.base, 'GET', '/watches?limit=200', { key: read })).body.data as { id: string; type: string }[];
      expect(all.length).toBeGreaterThan(8);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const r = await call(h.base, 'GET', `/watches?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: read });
        seen.push(...r.body.data.map((w: { id: string }) => w.id));
        cursor = r.body.next_cursor;
      } while (cursor);
      expect(seen).toEqual(all.map((w) => w.id));
      const clients = (await call(h.base, 'GET', '/watches?type=client', { key: read })).body.data as { type: string }[];
      expect(clients.length).toBeGreaterThan(0);
      expect(clients.every((w) => w.type === 'client')).toBe(true);
      expect((await call(h.base, 'GET', '/watches?type=managed', { key: read })).body.data).toHaveLength(1);
      const first = await call(h.base, 'GET', '/watches?limit=1', { key: read });
      const wrongFilter = await call(h.base, 'GET', `/watches?type=client&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: read });
      expect(wrongFilter.status).toBe(400);
    });

    it("answers 404 for another workspace's watch on every operation", async () => {
      const id = watchOf.ok!;
      const k = otherWrite;
      for (const [method, path, body] of [
        ['GET', `/watches/${id}`],
        ['GET', `/watches/${id}/stores`],
        ['GET', `/watches/${id}/events`],
        ['GET', `/watches/${id}/receipts`],
        ['GET', `/watches/${id}/brief`],
        ['DELETE', `/watches/${id}`],
        ['POST', `/watches/${id}/stores`, { store_ids: ['spare'] }],
        ['DELETE', `/watches/${id}/stores/ok`],
      ] as const) {
        const r = await call(h.base, method, path, { key: k, idem: method === 'GET' ? undefined : freshIdem(), body });
        expect([method, path, r.status]).toEqual([method, path, 404]);
      }
      expect((await get(id)).status).toBe(200);
      expect((await call(h.base, 'GET', '/watch/managed', { key: k })).body.status).toBe('none');
    });

    it('needs read:watch to read and write:watch to change', async () => {
      expect((await call(h.base, 'GET', '/watches', { key: accountsOnly })).status).toBe(403);
      expect((await call(h.base, 'GET', '/watch/managed', { key: accountsOnly })).status).toBe(403);
      expect((await call(h.base, 'GET', `/watches/${watchOf.ok}/brief`, { key: accountsOnly })).status).toBe(403);
      const r = await add({ type: 'self_directed', store_ids: ['ok'] }, read);
      expect(r.status).toBe(403);
      expect(r.body.required_scope).toBe('write:watch');
      expect((await call(h.base, 'POST', '/watch/managed/cancel', { key: read, idem: freshIdem() })).status).toBe(403);
      expect((await call(h.base, 'DELETE', `/watches/${watchOf.ok}`, { key: read, idem: freshIdem() })).status).toBe(403);
    });

    it('replays an add with the same Idempotency-Key and refuses it with another body', async () => {
      const idem = freshIdem();
      const a = await call(h.base, 'POST', '/watches', { key: write, idem, body: { type: 'self_directed', store_ids: ['ok'] } });
      const b = await call(h.base, 'POST', '/watches', { key: write, idem, body: { type: 'self_directed', store_ids: ['ok'] } });
      expect(b.headers.get('idempotent-replayed')).toBe('true');
      expect(b.body.id).toBe(a.body.id);
      expect((await call(h.base, 'POST', '/watches', { key: write, idem, body: { type: 'self_directed', store_ids: ['ads'] } })).status).toBe(409);
    });
  });
}
