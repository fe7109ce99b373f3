/**
 * Deals under concurrent changes split over two api processes: of changes based on one version
 * exactly one wins, and stage moves follow the transition table whatever their order.
 */
import { describe, expect, it } from 'vitest';
import { listEvents } from '../../src/webhooks/outbox.js';
import { labelsOf } from '../../src/accounts/labels.js';
import { listOutcomes } from '../../src/accounts/outcomes-store.js';
import { call, type CallResult, freshIdem } from '../helpers/api.js';
import { type Fleet, seedWorkspace, statuses } from './fixture.js';

const PROBLEM = 'https://storelens.dev/problems/';

/** `n` requests at once over both processes, each with its own key, Idempotency-Key and If-Match (when given). */
const race = (f: Fleet, keys: readonly string[], n: number, req: (i: number) => { method: string; path: string; body: unknown; ifMatch?: string }): Promise<CallResult[]> =>
  Promise.all(
    Array.from({ length: n }, (_, i) => {
      const r = req(i);
      return call(f.procs.base(i), r.method, r.path, { key: keys[i]!, idem: freshIdem(), body: r.body, headers: r.ifMatch === undefined ? {} : { 'if-match': r.ifMatch } });
    }),
  );

export function dealRaces(fleet: () => Fleet): void {
  describe('deals', () => {
    const newDeal = async (f: Fleet, key: string) => {
      const r = await call(f.procs.base(0), 'POST', '/deals', { key, idem: freshIdem(), body: { store_id: 'store-a', title: 'Renewal' } });
      expect(r.status).toBe(201);
      return r.body.id as string;
    };

    it('applies one of six updates based on one version: one 200, five 409 naming the current version', async () => {
      const f = fleet();
      const { keys } = await seedWorkspace(f.db, ['read:accounts', 'write:deals'], { keys: 6, accounts: ['store-a'] });
      const id = await newDeal(f, keys[0]!);
      const rs = await race(f, keys, 6, (i) => ({ method: 'PATCH', path: `/deals/${id}`, body: { title: `Renewal ${i}` }, ifMatch: '1' }));
      expect(statuses(rs)).toEqual({ 200: 1, 409: 5 });
      for (const r of rs.filter((x) => x.status === 409)) {
        expect(r.body.type).toBe(`${PROBLEM}conflict`);
        expect(r.body.current_version).toBe(2);
      }
      const deal = await f.db.kysely.selectFrom('deals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(Number(deal.version)).toBe(2);
      expect(deal.title).toBe(rs.find((r) => r.status === 200)!.body.title);
      const history = await f.db.kysely.selectFrom('deal_history').select(['version', 'kind']).where('deal_id', '=', id).orderBy('version').execute();
      expect(history.map((h) => [Number(h.version), h.kind])).toEqual([[1, 'created'], [2, 'field_changed']]);
    });

    it('moves a deal to a stage once when six moves race without If-Match: one 200, five 422 (already there)', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['read:accounts', 'write:deals'], { keys: 6, accounts: ['store-a'] });
      const id = await newDeal(f, keys[0]!);
      const rs = await race(f, keys, 6, () => ({ method: 'POST', path: `/deals/${id}/stage`, body: { stage: 'proposal' } }));
      expect(statuses(rs)).toEqual({ 200: 1, 422: 5 });
      const deal = await f.db.kysely.selectFrom('deals').select(['stage', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
      expect([deal.stage, Number(deal.version)]).toEqual(['proposal', 2]);
      const moves = (await listEvents(f.db.kysely, ws.id)).filter((e) => e.type === 'deal.stage_changed' && e.data.deal_id === id);
      expect(moves.map((e) => [e.data.from, e.data.to])).toEqual([['discovery', 'proposal']]);
    });

    it('creates one deal when eight creates with one Idempotency-Key race: every answer is that deal, one deal.created', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['read:accounts', 'write:deals'], { keys: 8, accounts: ['store-a'] });
      // Keys are the workspace's (not the API key's): eight API keys share one Idempotency-Key.
      const idem = freshIdem();
      const rs = await Promise.all(keys.map((key, i) => call(f.procs.base(i), 'POST', '/deals', { key, idem, body: { store_id: 'store-a', title: 'Once' } })));
      for (const r of rs) expect([201, 409]).toContain(r.status);
      for (const r of rs.filter((x) => x.status === 409)) expect(r.body.type).toBe(`${PROBLEM}idempotency-request-in-progress`);
      const deals = await f.db.kysely.selectFrom('deals').select('id').where('workspace_id', '=', ws.id).execute();
      expect(deals).toHaveLength(1);
      expect(new Set(rs.filter((r) => r.status === 201).map((r) => r.body.id))).toEqual(new Set([deals[0]!.id]));
      expect((await listEvents(f.db.kysely, ws.id)).filter((e) => e.type === 'deal.created')).toHaveLength(1);
    });

    it('keeps every raced stage move a legal transition from the stage before it', async () => {
      const f = fleet();
      const { keys } = await seedWorkspace(f.db, ['read:accounts', 'write:deals'], { keys: 6, accounts: ['store-a'] });
      const id = await newDeal(f, keys[0]!);
      const targets = ['won', 'qualifying', 'won', 'proposal', 'won', 'negotiation'];
      const rs = await race(f, keys, 6, (i) => ({ method: 'POST', path: `/deals/${id}/stage`, body: { stage: targets[i] } }));
      for (const r of rs) expect([200, 422]).toContain(r.status);
      const history = await f.db.kysely.selectFrom('deal_history').selectAll().where('deal_id', '=', id).orderBy('version').execute();
      const moved = history.filter((h) => h.kind === 'stage_changed');
      expect(moved).toHaveLength(rs.filter((r) => r.status === 200).length);
      // Each move starts where the one before it ended, and the deal ends at the last one.
      let at = 'discovery';
      for (const h of moved) {
        expect(JSON.parse(h.from_value)).toBe(at);
        at = JSON.parse(h.to_value) as string;
      }
      const deal = await f.db.kysely.selectFrom('deals').select(['stage', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(deal.stage).toBe(at);
      expect(Number(deal.version)).toBe(1 + moved.length);
    });

    it("ends each of twenty deals whose two moves race at its store's label, its history dated in order", async () => {
      const f = fleet();
      const stores = Array.from({ length: 20 }, (_, i) => `store-${i}`);
      // A key for each deal's creation and won move, another for its discovery move (within the write rate limit).
      const { ws, keys } = await seedWorkspace(f.db, ['read:accounts', 'write:deals'], { keys: 40, accounts: stores });
      const ids = await Promise.all(stores.map(async (store_id, k) => (await call(f.procs.base(0), 'POST', '/deals', { key: keys[k]!, idem: freshIdem(), body: { store_id, title: 'Race', stage: 'proposal' } })).body.id as string));
      // Both moves are legal in either order: won and discovery, one on each process.
      const rs = await Promise.all(ids.flatMap((id, k) => (['won', 'discovery'] as const).map((stage, i) => call(f.procs.base(i), 'POST', `/deals/${id}/stage`, { key: keys[k + 20 * i]!, idem: freshIdem(), body: { stage } }))));
      expect(statuses(rs)).toEqual({ 200: 40 });
      const labels = new Map(labelsOf(await listOutcomes(f.db.kysely, ws.id)).map((l) => [l.store_id, l]));
      for (const [k, id] of ids.entries()) {
        const deal = await f.db.kysely.selectFrom('deals').select('stage').where('id', '=', id).executeTakeFirstOrThrow();
        expect(labels.get(stores[k]!), `${id} ended ${deal.stage}`).toEqual(labelsOf([{ store_id: stores[k]!, action: deal.stage }])[0]);
        const times = (await f.db.kysely.selectFrom('deal_history').select('created_at').where('deal_id', '=', id).orderBy('version').execute()).map((h) => Date.parse(h.created_at));
        expect(times).toEqual([...times].sort((a, b) => a - b));
      }
    });
  });
}
