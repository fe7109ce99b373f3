/**
 * The account operations over a real socket: list filters and their cursors, the detail, the
 * signal history, operator statuses, the profile, and what another workspace can see of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProfile } from '../../src/accounts/profile-store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { seedAccounts, seedRun, signalId } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';
import { WORKING } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';
const LIMITS = { read: 100_000, write: 100_000, report: 100_000 };

const ids = (r: { body: { data: { store_id: string }[] } }) => r.body.data.map((a) => a.store_id);

for (const d of dialects) {
  describe.skipIf(d.skip)(`account operations on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;
    let other: Workspace;
    let read: string;
    let write: string;
    let otherRead: string;
    let otherWrite: string;

    beforeAll(async () => {
      h = await startApi(d.name, { operations: WORKING, rateLimits: LIMITS });
      ws = await workspace(h.db);
      other = await workspace(h.db);
      read = await apiKey(h.db, ws.id, ['read:accounts']);
      write = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals']);
      otherRead = await apiKey(h.db, other.id, ['read:accounts']);
      otherWrite = await apiKey(h.db, other.id, ['read:accounts', 'write:deals']);
      // Three months of the panel; 2026-03 also has a newer run that is not (yet) visible.
      await seedRun(h.db, '2026-01', 'run-jan', [{ store_id: 'us-apparel', country: 'US', category: 'apparel', plan: 'basic', monthly_visits: 1000 }], [
        { store_id: 'us-apparel', type: 'store_opened' },
        { store_id: 'gb-beauty', type: 'app_installed', subject: 'klaviyo' },
      ]);
      await seedRun(h.db, '2026-02', 'run-feb', [{ store_id: 'us-apparel', country: 'US', category: 'apparel', plan: 'grow', monthly_visits: 1500 }], [
        { store_id: 'us-apparel', type: 'plan_upgraded', subject: 'grow' },
        { store_id: 'us-apparel', type: 'ad_channel_started', subject: 'tiktok', detail: 'Started advertising on TikTok' },
        { store_id: 'us-home', type: 'traffic_up', detail: 'Monthly visits up 42% (12,000 → 17,040)' },
      ]);
      await seedRun(
        h.db,
        '2026-03',
        'run-mar',
        [
          {
            store_id: 'us-apparel',
            domain: 'north.example',
            country: 'US',
            category: 'apparel',
            plan: 'plus',
            created_month: '2025-06',
            product_count: 120,
            monthly_visits: 2_500_000_000,
            est_monthly_revenue_usd: 8123.5,
            apps: ['klaviyo', 'recharge'],
            ads: ['meta', 'tiktok'],
            agentic: ['llms_txt'],
          },
        ],
        [
          { store_id: 'us-apparel', type: 'app_installed', subject: 'recharge' },
          { store_id: 'us-apparel', type: 'app_installed', subject: 'klaviyo' },
        ],
      );
      await seedRun(h.db, '2026-03', 'run-mar-next', [{ store_id: 'us-apparel', country: 'XX', plan: 'hidden' }], [{ store_id: 'gb-beauty', type: 'revenue_jump' }], false);
      await seedRun(h.db, '2026-04', 'run-apr-unloaded', [], [{ store_id: 'us-apparel', type: 'traffic_down' }], false);
      await seedAccounts(h.db, ws.id, [
        { store_id: 'us-apparel', score: 0.9, country: 'US', category: 'apparel', plan: 'plus', domain: 'north.example' },
        { store_id: 'gb-beauty', score: 0.8, country: 'GB', category: 'beauty, skin', plan: 'plus', status: 'working' },
        { store_id: 'us-home', score: 0.7, country: 'US', category: 'home', plan: 'basic' },
        { store_id: 'de-food', score: 0.6, country: 'DE', category: 'food', plan: 'grow', in_market: false, status: 'customer' },
        { store_id: 'us-apparel-2', score: 0.5, country: 'US', category: 'apparel', plan: 'grow', in_market: false },
      ]);
      // The other workspace sees only us-home.
      await seedAccounts(h.db, other.id, [{ store_id: 'us-home', score: 0.4, country: 'US', category: 'home', plan: 'basic' }]);
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('list_accounts filters', () => {
      const list = (query: string, key = read) => call(h.base, 'GET', `/accounts?${query}`, { key });

      it('narrows by each filter, on the in-market list and on filter=all', async () => {
        expect(ids(await list('filter=all'))).toEqual(['us-apparel', 'gb-beauty', 'us-home', 'de-food', 'us-apparel-2']);
        expect(ids(await list(''))).toEqual(['us-apparel', 'gb-beauty', 'us-home']);
        expect(ids(await list('filter=all&min_score=0.7'))).toEqual(['us-apparel', 'gb-beauty', 'us-home']);
        expect(ids(await list('filter=all&country=US'))).toEqual(['us-apparel', 'us-home', 'us-apparel-2']);
        expect(ids(await list(`filter=all&category=${encodeURIComponent('beauty, skin')}`))).toEqual(['gb-beauty']);
        expect(ids(await list('filter=all&plan=grow'))).toEqual(['de-food', 'us-apparel-2']);
        expect(ids(await list('filter=all&status=customer'))).toEqual(['de-food']);
        expect(ids(await list('filter=all&status=open'))).toEqual(['us-apparel', 'us-home', 'us-apparel-2']);
        expect(ids(await list('filter=all&signal_type=app_installed'))).toEqual(['us-apparel', 'gb-beauty']);
        expect(ids(await list('filter=all&signals_since=2026-02'))).toEqual(['us-apparel', 'us-home']);
      });

      it('combines filters (AND), and only counts signals of the visible run of each month', async () => {
        expect(ids(await list('filter=all&country=US&plan=grow'))).toEqual(['us-apparel-2']);
        expect(ids(await list('country=US&min_score=0.75'))).toEqual(['us-apparel']);
        expect(ids(await list('filter=all&signal_type=app_installed&signals_since=2026-02'))).toEqual(['us-apparel']);
        expect(ids(await list('filter=all&signal_type=traffic_up&country=GB'))).toEqual([]);
        // revenue_jump (2026-03) and traffic_down (2026-04) are in runs that are not ingested.
        expect(ids(await list('filter=all&signal_type=revenue_jump'))).toEqual([]);
        expect(ids(await list('filter=all&signal_type=traffic_down'))).toEqual([]);
      });

      it('walks a filtered list with cursors, and refuses a cursor with other filters', async () => {
        const first = await list('filter=all&country=US&limit=2');
        expect(ids(first)).toEqual(['us-apparel', 'us-home']);
        const cursor = encodeURIComponent(first.body.next_cursor);
        const second = await list(`filter=all&country=US&limit=2&cursor=${cursor}`);
        expect([ids(second), second.body.next_cursor]).toEqual([['us-apparel-2'], null]);
        for (const changed of ['filter=all&country=GB', 'filter=all', 'filter=all&country=US&status=open', 'country=US']) {
          const r = await list(`${changed}&limit=2&cursor=${cursor}`);
          expect([r.status, r.body.type], changed).toEqual([400, PROBLEM + 'invalid-cursor']);
        }
      });

      it('keeps the filters on a cursor that walks a ranking superseded mid-walk', async () => {
        const mine = await workspace(h.db);
        const key = await apiKey(h.db, mine.id, ['read:accounts']);
        const rows = [
          { store_id: 'a', score: 0.9, country: 'US', status: 'working' as const },
          { store_id: 'b', score: 0.8, country: 'GB', status: 'working' as const },
          { store_id: 'c', score: 0.7, country: 'US', status: 'open' as const },
          { store_id: 'd', score: 0.6, country: 'US', status: 'working' as const },
          { store_id: 'e', score: 0.5, country: 'US', status: 'working' as const },
        ];
        await seedAccounts(h.db, mine.id, rows);
        const first = await list('filter=all&country=US&status=working&limit=1', key);
        expect(ids(first)).toEqual(['a']);
        // Re-ranked: e jumps to the top, d falls below every other row.
        await seedAccounts(h.db, mine.id, [{ ...rows[4]!, score: 0.95 }, { ...rows[3]!, score: 0.1 }]);
        const rest = await list(`filter=all&country=US&status=working&limit=5&cursor=${encodeURIComponent(first.body.next_cursor)}`, key);
        expect(ids(rest)).toEqual(['d', 'e']);
        expect(ids(await list('filter=all&country=US&status=working', key))).toEqual(['e', 'a', 'd']);
      });

      it('answers a signal filter from the signals ingested since the last call', async () => {
        const mine = await workspace(h.db);
        const key = await apiKey(h.db, mine.id, ['read:accounts']);
        await seedAccounts(h.db, mine.id, [{ store_id: 'late-bloomer', score: 0.5 }]);
        expect(ids(await list('filter=all&signal_type=catalogue_growth', key))).toEqual([]);
        await seedRun(h.db, '2026-05', 'run-may', [], [{ store_id: 'late-bloomer', type: 'catalogue_growth' }]);
        expect(ids(await list('filter=all&signal_type=catalogue_growth', key))).toEqual(['late-bloomer']);
      });

      it.each([
        ['min_score', 'min_score=high'],
        ['min_score', 'min_score=1e-3'],
        ['min_score', 'min_score=70'],
        ['min_score', 'min_score=-0.1'],
        ['country', 'country=Germany'],
        ['country', 'country=USA'],
        ['category', 'category='],
        ['status', 'status=archived'],
        ['signal_type', 'signal_type=traffic_jump'],
        ['signals_since', 'signals_since=2026-13'],
        ['signals_since', 'signals_since=2026-1'],
      ])('answers 400 naming %s for %s', async (field, query) => {
        const r = await list(query);
        expect(r.status).toBe(400);
        expect(r.body.type).toBe(PROBLEM + 'invalid-parameters');
        expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual([field]);
      });

      it('returns the row shape with status, model version, explore, signals and typed evidence', async () => {
        const r = await list('filter=all&status=working');
        expect(r.body.data[0]).toMatchObject({
          object: 'account',
          store_id: 'gb-beauty',
          status: 'working',
          model_version: 1,
          explore: false,
          in_market: true,
          selected_for_first_party_surface: true,
          delivered_to_agent: true,
          signals: [],
          evidence: [],
        });
        expect(r.body.data[0].logit).toBeCloseTo(Math.log(0.8 / 0.2), 9);
      });
    });

    describe('get_account', () => {
      it('answers the row, the latest ingested features, the status history and the signal summary, and delivers the row', async () => {
        const r = await call(h.base, 'GET', '/accounts/us-apparel', { key: read });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ object: 'account', store_id: 'us-apparel', score: 0.9, status: 'open', delivered_to_agent: true, deals: [], contacts: [] });
        expect(r.body.features).toEqual({
          month: '2026-03',
          domain: 'north.example',
          country: 'US',
          category: 'apparel',
          plan: 'plus',
          created_month: '2025-06',
          product_count: 120,
          monthly_visits: 2_500_000_000,
          est_monthly_revenue_usd: 8123.5,
          apps: ['klaviyo', 'recharge'],
          ads: ['meta', 'tiktok'],
          agentic: ['llms_txt'],
        });
        expect(r.body.signal_summary).toEqual({
          total: 5,
          by_type: { store_opened: 1, plan_upgraded: 1, ad_channel_started: 1, app_installed: 2 },
          first_month: '2026-01',
          last_month: '2026-03',
        });
        expect(r.body.status_history).toEqual([]);
        const row = await h.db.kysely.selectFrom('accounts').select('delivered_to_agent').where('workspace_id', '=', ws.id).where('store_id', '=', 'us-apparel').executeTakeFirstOrThrow();
        expect(row.delivered_to_agent).toBe(1);
      });

      it('answers features null for an account the panel has no month of', async () => {
        const r = await call(h.base, 'GET', '/accounts/de-food', { key: read });
        expect([r.status, r.body.features, r.body.signal_summary.total]).toEqual([200, null, 0]);
      });
    });

    describe('list_account_signals', () => {
      it('pages the history across ingested months, newest month first then id', async () => {
        const seen: any[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const q: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
          const r = await call(h.base, 'GET', `/accounts/us-apparel/signals${q}`, { key: read });
          expect(r.status).toBe(200);
          seen.push(...r.body.data);
          cursor = r.body.next_cursor;
          pages++;
        } while (cursor);
        expect(pages).toBe(3);
        const mar = [signalId('2026-03', { store_id: 'us-apparel', type: 'app_installed', subject: 'recharge' }), signalId('2026-03', { store_id: 'us-apparel', type: 'app_installed', subject: 'klaviyo' })].sort();
        const feb = [signalId('2026-02', { store_id: 'us-apparel', type: 'plan_upgraded', subject: 'grow' }), signalId('2026-02', { store_id: 'us-apparel', type: 'ad_channel_started', subject: 'tiktok' })].sort();
        const jan = [signalId('2026-01', { store_id: 'us-apparel', type: 'store_opened' })];
        expect(seen.map((s) => s.id)).toEqual([...mar, ...feb, ...jan]);
        expect(seen.find((s) => s.type === 'ad_channel_started')).toEqual({
          object: 'signal',
          id: feb.find((id) => id === signalId('2026-02', { store_id: 'us-apparel', type: 'ad_channel_started', subject: 'tiktok' })),
          store_id: 'us-apparel',
          type: 'ad_channel_started',
          month: '2026-02',
          subject: 'tiktok',
          strength: 0.5,
          detail: 'Started advertising on TikTok',
        });
      });

      it("refuses another account's cursor", async () => {
        const first = await call(h.base, 'GET', '/accounts/us-apparel/signals?limit=1', { key: read });
        const r = await call(h.base, 'GET', `/accounts/gb-beauty/signals?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: read });
        expect([r.status, r.body.type]).toEqual([400, PROBLEM + 'invalid-cursor']);
      });
    });

    describe('set_account_status', () => {
      const setStatus = (store: string, body: unknown, idem = freshIdem(), key = write) => call(h.base, 'POST', `/accounts/${encodeURIComponent(store)}/status`, { key, idem, body });

      it('records the status, keeps the history newest first, and filters the list by it', async () => {
        const before = await h.db.kysely.selectFrom('workspaces').select('accounts_version').where('id', '=', ws.id).executeTakeFirstOrThrow();
        const first = await setStatus('us-home', { status: 'working', note: 'called them' });
        expect(first.status).toBe(200);
        expect(first.body).toEqual({ object: 'account_status', store_id: 'us-home', status: 'working', note: 'called them', updated_at: h.clock.now().toISOString() });
        h.clock.advance(1000);
        expect((await setStatus('us-home', { status: 'qualified' })).body.note).toBeNull();
        const after = await h.db.kysely.selectFrom('workspaces').select('accounts_version').where('id', '=', ws.id).executeTakeFirstOrThrow();
        expect(Number(after.accounts_version)).toBe(Number(before.accounts_version) + 2);
        const detail = await call(h.base, 'GET', '/accounts/us-home', { key: read });
        expect(detail.body.status).toBe('qualified');
        const keyId = (await h.db.kysely.selectFrom('api_keys').select('id').where('workspace_id', '=', ws.id).where('scopes', 'like', '%write:deals%').executeTakeFirstOrThrow()).id;
        expect(detail.body.status_history).toEqual([
          { status: 'qualified', note: null, actor: `key:${keyId}`, created_at: new Date(h.clock.now()).toISOString() },
          { status: 'working', note: 'called them', actor: `key:${keyId}`, created_at: first.body.updated_at },
        ]);
        expect(ids(await call(h.base, 'GET', '/accounts?filter=all&status=qualified', { key: read }))).toEqual(['us-home']);
      });

      it('replays the same key and body, answers 409 to the same key with another body and applies nothing', async () => {
        const idem = freshIdem();
        const first = await setStatus('us-apparel-2', { status: 'disqualified', note: 'not a fit' }, idem);
        h.clock.advance(1000);
        const again = await setStatus('us-apparel-2', { status: 'disqualified', note: 'not a fit' }, idem);
        expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([200, 'true', first.body]);
        const changed = await setStatus('us-apparel-2', { status: 'customer' }, idem);
        expect([changed.status, changed.body.type]).toEqual([409, PROBLEM + 'idempotency-key-reused']);
        const detail = await call(h.base, 'GET', '/accounts/us-apparel-2', { key: read });
        expect(detail.body.status).toBe('disqualified');
        expect(detail.body.status_history).toHaveLength(1);
      });

      it('answers 400 to an unknown status or field, and 400 without an Idempotency-Key', async () => {
        const unknown = await setStatus('us-home', { status: 'archived' });
        expect([unknown.status, unknown.body.type, unknown.body.errors[0].path]).toEqual([400, PROBLEM + 'invalid-body', 'status']);
        expect((await setStatus('us-home', { status: 'open', reason: 'x' })).status).toBe(400);
        const noKey = await call(h.base, 'POST', '/accounts/us-home/status', { key: write, body: { status: 'open' } });
        expect([noKey.status, noKey.body.type]).toEqual([400, PROBLEM + 'idempotency-key-required']);
      });
    });

    describe('visibility', () => {
      it('answers 404 on every account operation for a store the workspace has no account for', async () => {
        for (const store of ['nowhere', 'de-food-2']) {
          const detail = await call(h.base, 'GET', `/accounts/${store}`, { key: read });
          const signals = await call(h.base, 'GET', `/accounts/${store}/signals`, { key: read });
          const status = await call(h.base, 'POST', `/accounts/${store}/status`, { key: write, idem: freshIdem(), body: { status: 'working' } });
          for (const r of [detail, signals, status]) expect([r.status, r.body.type]).toEqual([404, PROBLEM + 'not-found']);
        }
        const written = await h.db.kysely.selectFrom('account_statuses').select('id').where('store_id', '=', 'nowhere').execute();
        expect(written).toEqual([]);
      });

      it("answers 404 for another workspace's accounts, even for a store with panel history", async () => {
        // us-apparel has signals and features, but the other workspace has no account for it.
        expect((await call(h.base, 'GET', '/accounts/us-apparel', { key: otherRead })).status).toBe(404);
        expect((await call(h.base, 'GET', '/accounts/us-apparel/signals', { key: otherRead })).status).toBe(404);
        expect((await call(h.base, 'POST', '/accounts/gb-beauty/status', { key: otherWrite, idem: freshIdem(), body: { status: 'customer' } })).status).toBe(404);
        expect((await call(h.base, 'GET', '/accounts/gb-beauty', { key: read })).body.status).toBe('working');
      });

      it("never shows one workspace's statuses in another's", async () => {
        const set = await call(h.base, 'POST', '/accounts/us-home/status', { key: otherWrite, idem: freshIdem(), body: { status: 'do_not_contact', note: 'theirs' } });
        expect(set.status).toBe(200);
        const mine = await call(h.base, 'GET', '/accounts/us-home', { key: read });
        expect(mine.body.status).not.toBe('do_not_contact');
        expect(mine.body.status_history.map((s: { note: string | null }) => s.note)).not.toContain('theirs');
        const theirs = await call(h.base, 'GET', '/accounts/us-home', { key: otherRead });
        expect([theirs.body.status, theirs.body.status_history.length, theirs.body.score]).toEqual(['do_not_contact', 1, 0.4]);
        expect(ids(await call(h.base, 'GET', '/accounts?filter=all&status=do_not_contact', { key: read }))).toEqual([]);
        expect(ids(await call(h.base, 'GET', '/accounts?filter=all', { key: otherRead }))).toEqual(['us-home']);
      });
    });

    describe('get_profile', () => {
      it('answers profile null until one is set, then the profile', async () => {
        const none = await call(h.base, 'GET', '/profile', { key: otherRead });
        expect(none.body).toEqual({ object: 'profile', workspace_id: other.id, profile: null, updated_at: null });
        const at = new Date('2026-02-03T04:05:06.000Z');
        await h.db.write((trx) => setProfile(trx, other.id, { countries: ['US', 'GB'], categories: ['home, garden'], min_visits: 1000 }, at));
        const set = await call(h.base, 'GET', '/profile', { key: otherRead });
        expect(set.body).toEqual({
          object: 'profile',
          workspace_id: other.id,
          profile: { countries: ['US', 'GB'], categories: ['home, garden'], min_visits: 1000 },
          updated_at: at.toISOString(),
        });
        expect((await call(h.base, 'GET', '/profile', { key: read })).body.profile).toBeNull();
      });

      it('needs read:accounts', async () => {
        const key = await apiKey(h.db, ws.id, ['write:outcomes']);
        expect((await call(h.base, 'GET', '/profile', { key })).status).toBe(403);
      });
    });
  });
}
