/**
 * The deal operations over a real socket: create, read, list filters and cursors, updates and
 * stage moves under If-Match, the transition table, notes, history, the outbox, what another
 * workspace (or a key without the scope) can do, and a stage move as a ranking label.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { labelsOf } from '../../src/accounts/labels.js';
import { listEvents } from '../../src/webhooks/outbox.js';
import { listOutcomes } from '../../src/accounts/outcomes-store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { DEAL_STAGES, type DealStage } from '../../src/core/deal-stages.js';
import { seedAccounts, seedRun } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';
import { WORKING } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';
const LIMITS = { read: 100_000, write: 100_000, report: 100_000 };
const DEALS = WORKING;

/** The documented rule, written independently of the table the service reads. */
const TERMINAL = new Set<DealStage>(['won', 'lost']);
const allowed = (from: DealStage, to: DealStage) => from !== to && !(TERMINAL.has(from) && TERMINAL.has(to));
const lostBody = (stage: DealStage) => (stage === 'lost' ? { stage, lost_reason: 'budget' } : { stage });

for (const d of dialects) {
  describe.skipIf(d.skip)(`deal operations on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;
    let other: Workspace;
    let read: string;
    let write: string;
    let writeOnly: string;
    let otherWrite: string;
    let keyId: string;

    beforeAll(async () => {
      h = await startApi(d.name, { operations: DEALS, rateLimits: LIMITS, poolSize: 4 });
      ws = await workspace(h.db);
      other = await workspace(h.db);
      read = await apiKey(h.db, ws.id, ['read:accounts']);
      write = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals']);
      writeOnly = await apiKey(h.db, ws.id, ['write:deals']);
      otherWrite = await apiKey(h.db, other.id, ['read:accounts', 'write:deals']);
      keyId = (await h.db.kysely.selectFrom('api_keys').select('id').where('workspace_id', '=', ws.id).where('scopes', 'like', '%read:accounts%write:deals%').executeTakeFirstOrThrow()).id;
      await seedAccounts(h.db, ws.id, ['st-a', 'st-b', 'st-c', 'st-p'].map((store_id, i) => ({ store_id, score: 0.9 - i / 10 })));
      await seedAccounts(h.db, other.id, [{ store_id: 'st-a', score: 0.5 }, { store_id: 'st-other', score: 0.5 }]);
    });
    afterAll(async () => {
      await h?.close();
    });

    const create = (body: Record<string, unknown>, key = write) => call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body });
    const patch = (id: string, body: Record<string, unknown>, ifMatch?: string, key = write) =>
      call(h.base, 'PATCH', `/deals/${id}`, { key, idem: freshIdem(), body, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
    const move = (id: string, body: Record<string, unknown>, ifMatch?: string, key = write) =>
      call(h.base, 'POST', `/deals/${id}/stage`, { key, idem: freshIdem(), body, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
    const get = (path: string, key = read) => call(h.base, 'GET', path, { key });
    const expectProblem = (r: { status: number; contentType: string; body: any }, status: number, type: string) => {
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.contentType).toContain('application/problem+json');
      expect(r.body.type).toBe(PROBLEM + type);
    };
    const walk = async (path: string, limit: number) => {
      const seen: any[] = [];
      let cursor: string | null = null;
      do {
        const sep = path.includes('?') ? '&' : '?';
        const r = await get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.data.length).toBeLessThanOrEqual(limit);
        seen.push(...r.body.data);
        cursor = r.body.next_cursor;
      } while (cursor);
      return seen;
    };

    it('creates a deal for a visible store, reads it back, and lists it on the account', async () => {
      const r = await create({ store_id: 'st-a', title: ' Spring relaunch ', value: 12500, currency: 'EUR', owner_email: ' Ana@Agency.EXAMPLE ', expected_close_date: '2026-03-31' });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toEqual({
        object: 'deal',
        id: expect.stringMatching(/^deal_/),
        store_id: 'st-a',
        title: 'Spring relaunch',
        value: 12500,
        currency: 'EUR',
        stage: 'discovery',
        owner_email: 'Ana@agency.example',
        expected_close_date: '2026-03-31',
        lost_reason: null,
        lost_reason_other: null,
        version: 1,
        created_at: h.clock.now().toISOString(),
        updated_at: h.clock.now().toISOString(),
      });
      expect((await get(`/deals/${r.body.id}`)).body).toEqual(r.body);
      const account = await get('/accounts/st-a');
      expect(account.status).toBe(200);
      expect(account.body.deals).toContainEqual(r.body);
      expect((await get('/accounts/st-b')).body.deals).toEqual([]);
    });

    it('refuses bad fields with a 400 naming the field', async () => {
      for (const [body, field] of [
        [{ store_id: 'st-a', title: 'x', currency: 'EURO' }, 'currency'],
        [{ store_id: 'st-a', title: 'x', currency: 'XYZ' }, 'currency'],
        [{ store_id: 'st-a', title: 'x', currency: 'eur' }, 'currency'],
        [{ store_id: 'st-a', title: 'x', value: -1 }, 'value'],
        [{ store_id: 'st-a', title: 'x', owner_email: 'not-an-email' }, 'owner_email'],
        // Longer than a contact's email may be (320): it was stored, an owner no contact could be.
        [{ store_id: 'st-a', title: 'x', owner_email: `${'a'.repeat(320)}@x.example` }, 'owner_email'],
        [{ store_id: 'st-a', title: 'x', expected_close_date: '2026-02-30' }, 'expected_close_date'],
        [{ store_id: 'st-a', title: '' }, 'title'],
        [{ store_id: 'st-a', title: 'x', stage: 'closed' }, 'stage'],
        [{ store_id: 'st-a', title: 'x', version: 3 }, 'version'],
      ] as const) {
        const r = await create(body);
        expectProblem(r, 400, 'invalid-body');
        expect(r.body.detail).toContain(field);
      }
    });

    it('answers 404 for a store the workspace cannot see, and for another workspace\'s deal', async () => {
      expectProblem(await create({ store_id: 'st-other', title: 'x' }), 404, 'not-found');
      expectProblem(await create({ store_id: 'nowhere', title: 'x' }), 404, 'not-found');
      const mine = (await create({ store_id: 'st-a', title: 'mine' })).body;
      const theirs = await create({ store_id: 'st-a', title: 'theirs' }, otherWrite);
      expect(theirs.status).toBe(201);
      const id = theirs.body.id;
      expectProblem(await get(`/deals/${id}`), 404, 'not-found');
      expectProblem(await patch(id, { title: 'taken' }), 404, 'not-found');
      expectProblem(await move(id, { stage: 'won' }), 404, 'not-found');
      expectProblem(await call(h.base, 'POST', `/deals/${id}/notes`, { key: write, idem: freshIdem(), body: { body: 'hi' } }), 404, 'not-found');
      expectProblem(await get(`/deals/${id}/notes`), 404, 'not-found');
      expectProblem(await get(`/deals/${id}/history`), 404, 'not-found');
      expect((await get('/deals?limit=200')).body.data.map((x: any) => x.id)).not.toContain(id);
      expectProblem(await call(h.base, 'GET', `/deals/${mine.id}`, { key: otherWrite }), 404, 'not-found');
      expect((await call(h.base, 'GET', `/deals/${id}`, { key: otherWrite })).body.title).toBe('theirs');
    });

    it('needs read:accounts to read and write:deals to change', async () => {
      const deal = (await create({ store_id: 'st-b', title: 'scoped' })).body;
      expectProblem(await create({ store_id: 'st-b', title: 'x' }, read), 403, 'insufficient-scope');
      expectProblem(await patch(deal.id, { title: 'y' }, undefined, read), 403, 'insufficient-scope');
      expectProblem(await move(deal.id, { stage: 'won' }, undefined, read), 403, 'insufficient-scope');
      expectProblem(await call(h.base, 'POST', `/deals/${deal.id}/notes`, { key: read, idem: freshIdem(), body: { body: 'x' } }), 403, 'insufficient-scope');
      for (const path of ['/deals', `/deals/${deal.id}`, `/deals/${deal.id}/notes`, `/deals/${deal.id}/history`]) {
        expectProblem(await get(path, writeOnly), 403, 'insufficient-scope');
      }
      expect((await create({ store_id: 'st-b', title: 'by a write-only key' }, writeOnly)).status).toBe(201);
    });

    it('updates under If-Match, bare or quoted: a stale version ⇒ 409, a malformed one ⇒ 400', async () => {
      const deal = (await create({ store_id: 'st-b', title: 'Retainer', value: 1000, currency: 'USD' })).body;
      h.clock.advance(1000);
      const r = await patch(deal.id, { value: 1500, owner_email: 'bo@x.example' }, '1');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ value: 1500, owner_email: 'bo@x.example', currency: 'USD', version: 2, updated_at: h.clock.now().toISOString(), created_at: deal.created_at });
      const stale = await patch(deal.id, { title: 'Late' }, '1');
      expectProblem(stale, 409, 'conflict');
      expect(stale.body.detail).toContain('version 2');
      expect((await patch(deal.id, { title: 'Quoted', currency: null }, '"2"')).body).toMatchObject({ title: 'Quoted', currency: null, version: 3 });
      for (const bad of ['two', 'W/"3"', '"3', '03', '']) expectProblem(await patch(deal.id, { title: 'x' }, bad), 400, 'invalid-parameters');
      expect((await patch(deal.id, { title: 'No If-Match' })).body).toMatchObject({ title: 'No If-Match', version: 4 });
      expect((await patch(deal.id, { title: 'No If-Match' }, '4')).body.version).toBe(4);
      expectProblem(await patch(deal.id, {}), 400, 'invalid-body');
      expectProblem(await patch(deal.id, { stage: 'won' }), 400, 'invalid-body');
      expect((await get(`/deals/${deal.id}`)).body).toMatchObject({ title: 'No If-Match', value: 1500, currency: null, version: 4 });
    });

    it('sends the version as a strong ETag on a read and on every change, which If-Match takes back as it is', async () => {
      const created = await create({ store_id: 'st-b', title: 'Tagged' });
      expect(created.status).toBe(201);
      expect(created.headers.get('etag')).toBe('"1"');
      expect(created.headers.get('location')).toBe(`/api/v1/deals/${created.body.id}`);
      const read1 = await get(created.headers.get('location')!.slice('/api/v1'.length));
      expect([read1.headers.get('etag'), read1.body.version]).toEqual(['"1"', 1]);
      // Read-modify-write with the header alone: the ETag read is the If-Match sent.
      const updated = await patch(created.body.id, { title: 'Retagged' }, read1.headers.get('etag')!);
      expect([updated.status, updated.headers.get('etag'), updated.body.version]).toEqual([200, '"2"', 2]);
      expectProblem(await patch(created.body.id, { title: 'Late' }, read1.headers.get('etag')!), 409, 'conflict');
      const moved = await move(created.body.id, { stage: 'proposal' }, updated.headers.get('etag')!);
      expect([moved.status, moved.headers.get('etag'), moved.body.version]).toEqual([200, '"3"', 3]);
      const head = await fetch(`${h.base}/deals/${created.body.id}`, { method: 'HEAD', headers: { authorization: `Bearer ${read}` } });
      expect([head.status, head.headers.get('etag')]).toEqual([200, '"3"']);
      // A problem names no version.
      expect((await patch(created.body.id, { title: 'x' }, '"1"')).headers.get('etag')).toBeNull();
    });

    it('answers a read whose If-None-Match names the current ETag with 304 and no body, and a changed deal with 200', async () => {
      const deal = (await create({ store_id: 'st-b', title: 'Cached' })).body;
      const cond = (inm: string, method = 'GET') => fetch(`${h.base}/deals/${deal.id}`, { method, headers: { authorization: `Bearer ${read}`, 'if-none-match': inm } });
      for (const inm of ['"1"', 'W/"1"', '"7", "1"', '*']) {
        const r = await cond(inm);
        expect([r.status, r.headers.get('etag'), await r.text()], inm).toEqual([304, '"1"', '']);
      }
      expect((await cond('"1"', 'HEAD')).status).toBe(304);
      await patch(deal.id, { title: 'Changed' }, '1');
      const changed = await cond('"1"');
      expect([changed.status, changed.headers.get('etag')]).toEqual([200, '"2"']);
      expect(((await changed.json()) as { title: string }).title).toBe('Changed');
      // A change is never answered 304, whatever If-None-Match says.
      const r = await call(h.base, 'PATCH', `/deals/${deal.id}`, { key: write, idem: freshIdem(), body: { title: 'Again' }, headers: { 'if-none-match': '*' } });
      expect([r.status, r.headers.get('etag')]).toEqual([200, '"3"']);
    });

    it('answers a replayed change with the ETag of the answer it replays', async () => {
      const deal = (await create({ store_id: 'st-b', title: 'Replayed' })).body;
      const idem = freshIdem();
      const first = await call(h.base, 'PATCH', `/deals/${deal.id}`, { key: write, idem, body: { title: 'Once' }, headers: { 'if-match': '"1"' } });
      await patch(deal.id, { title: 'Later' });
      const replay = await call(h.base, 'PATCH', `/deals/${deal.id}`, { key: write, idem, body: { title: 'Once' }, headers: { 'if-match': '"1"' } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect([first.headers.get('etag'), replay.headers.get('etag'), replay.body.version]).toEqual(['"2"', '"2"', 2]);
    });

    it('counts If-Match in what an Idempotency-Key stands for: a retry with another version is other input, not the stale answer replayed', async () => {
      const deal = (await create({ store_id: 'st-b', title: 'Kept key' })).body;
      await patch(deal.id, { title: 'Moved on' }, '1');
      const send = (ifMatch: string) => call(h.base, 'PATCH', `/deals/${deal.id}`, { key: write, idem: 'retry-with-version', body: { title: 'Mine' }, headers: { 'if-match': ifMatch } });
      expectProblem(await send('1'), 409, 'conflict');
      const replay = await send('1');
      expectProblem(replay, 409, 'conflict');
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expectProblem(await send('2'), 409, 'idempotency-key-reused');
      expect((await get(`/deals/${deal.id}`)).body).toMatchObject({ title: 'Moved on', version: 2 });
    });

    it('takes If-Match 2 and "2" (and * and none) as one precondition: a retry that switches form with the same Idempotency-Key replays', async () => {
      const deal = (await create({ store_id: 'st-b', title: 'Either form' })).body;
      await patch(deal.id, { title: 'Second' });
      const send = (idem: string, title: string, ifMatch?: string) =>
        call(h.base, 'PATCH', `/deals/${deal.id}`, { key: write, idem, body: { title }, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
      for (const [idem, title, first, retry] of [
        [freshIdem(), 'Bare then quoted', '2', '"2"'],
        [freshIdem(), 'Quoted then bare', '"3"', '3'],
        [freshIdem(), 'Any then none', '*', undefined],
        [freshIdem(), 'None then any', undefined, '*'],
      ] as const) {
        const made = await send(idem, title, first);
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        const again = await send(idem, title, retry);
        expect([again.status, again.headers.get('idempotent-replayed')], `${first} then ${retry}: ${JSON.stringify(again.body)}`).toEqual([200, 'true']);
        expect(again.body).toEqual(made.body);
      }
      expect((await get(`/deals/${deal.id}`)).body).toMatchObject({ title: 'None then any', version: 6 });
    });

    it('reads If-Match: * as any version: an update and a stage move apply to the latest version', async () => {
      const deal = (await create({ store_id: 'st-b', title: 'Wildcard' })).body;
      expect((await patch(deal.id, { title: 'Moved on' }, '1')).body.version).toBe(2);
      const updated = await patch(deal.id, { title: 'Any version' }, '*');
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body).toMatchObject({ title: 'Any version', version: 3 });
      const moved = await move(deal.id, { stage: 'proposal' }, '*');
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({ stage: 'proposal', version: 4 });
      // `"*"` is an entity tag whose value is *, not the wildcard; a weak tag never matches strongly.
      for (const bad of ['"*"', 'W/*', '*, "4"']) expectProblem(await patch(deal.id, { title: 'x' }, bad), 400, 'invalid-parameters');
      expectProblem(await patch(deal.id, { title: 'Gone' }, '*', otherWrite), 404, 'not-found');
      expect((await get(`/deals/${deal.id}`)).body).toMatchObject({ title: 'Any version', stage: 'proposal', version: 4 });
    });

    it('lets exactly one of two concurrent updates based on one version win', async () => {
      for (let round = 0; round < 5; round++) {
        const deal = (await create({ store_id: 'st-c', title: `race ${round}` })).body;
        const [a, b] = await Promise.all([patch(deal.id, { title: 'A' }, '1'), round % 2 ? patch(deal.id, { title: 'B' }, '1') : move(deal.id, { stage: 'proposal' }, '1')]);
        expect([a.status, b.status].sort()).toEqual([200, 409]);
        const now = (await get(`/deals/${deal.id}`)).body;
        expect(now.version).toBe(2);
        const history = (await get(`/deals/${deal.id}/history`)).body.data;
        expect(history.map((c: any) => c.version)).toEqual([1, 2]);
      }
    });

    it('moves to lost only with a reason, and other only with its text', async () => {
      const deal = (await create({ store_id: 'st-c', title: 'Lost cause' })).body;
      const noReason = await move(deal.id, { stage: 'lost' });
      expectProblem(noReason, 400, 'invalid-body');
      expect(noReason.body.detail).toContain('lost_reason');
      const noOther = await move(deal.id, { stage: 'lost', lost_reason: 'other' });
      expectProblem(noOther, 400, 'invalid-body');
      expect(noOther.body.detail).toContain('lost_reason_other');
      expectProblem(await move(deal.id, { stage: 'won', lost_reason: 'budget' }), 400, 'invalid-body');
      expectProblem(await create({ store_id: 'st-c', title: 'x', stage: 'lost' }), 400, 'invalid-body');
      expect((await get(`/deals/${deal.id}`)).body.version).toBe(1);
      const lost = await move(deal.id, { stage: 'lost', lost_reason: 'other', lost_reason_other: 'merged with a competitor' });
      expect(lost.body).toMatchObject({ stage: 'lost', lost_reason: 'other', lost_reason_other: 'merged with a competitor', version: 2 });
      const reopened = await move(deal.id, { stage: 'negotiation' }, '2');
      expect(reopened.body).toMatchObject({ stage: 'negotiation', lost_reason: null, lost_reason_other: null, version: 3 });
    });

    it('follows the documented transition table for every random sequence of moves', async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...DEAL_STAGES), fc.array(fc.constantFrom(...DEAL_STAGES), { minLength: 1, maxLength: 8 }), async (start, moves) => {
          const deal = (await create({ store_id: 'st-p', title: `prop ${++n}`, ...lostBody(start) })).body;
          expect(deal.stage).toBe(start);
          let stage: DealStage = start;
          let version = 1;
          for (const to of moves) {
            const r = await move(deal.id, lostBody(to), String(version));
            if (allowed(stage, to)) {
              expect(r.status, `${stage} → ${to}: ${JSON.stringify(r.body)}`).toBe(200);
              stage = to;
              version += 1;
            } else {
              expectProblem(r, 422, 'unprocessable');
              expect(r.body).toMatchObject({ from: stage, to });
              expect(r.body.detail).toContain(`from ${stage} to ${to}`);
            }
            expect(r.status === 200 ? r.body : (await get(`/deals/${deal.id}`)).body).toMatchObject({ stage, version });
          }
          const history = (await get(`/deals/${deal.id}/history`)).body.data;
          expect(history.map((c: any) => c.to)).toEqual([start, ...history.slice(1).map((c: any) => c.to)]);
          expect(history.length).toBe(version);
          for (const c of history) expect(DEAL_STAGES).toContain(c.to);
        }),
        { numRuns: 12, seed: 10 },
      );
    });

    it('records every change in the history with its actor, time, from and to', async () => {
      const t0 = h.clock.now().toISOString();
      const deal = (await create({ store_id: 'st-a', title: 'History', value: 10, currency: 'GBP' })).body;
      h.clock.advance(60_000);
      await patch(deal.id, { title: 'History 2', value: 20, currency: 'GBP' }, '1');
      const t1 = h.clock.now().toISOString();
      h.clock.advance(60_000);
      await move(deal.id, { stage: 'won' }, '2');
      const t2 = h.clock.now().toISOString();
      h.clock.advance(60_000);
      await move(deal.id, { stage: 'proposal' }, '3');
      await move(deal.id, { stage: 'lost', lost_reason: 'timing' }, '4');
      const t3 = h.clock.now().toISOString();
      const actor = `key:${keyId}`;
      const base = { object: 'deal_change', deal_id: deal.id, actor, lost_reason: null, lost_reason_other: null };
      const expected = [
        { ...base, version: 1, kind: 'created', field: 'stage', from: null, to: 'discovery', changed_at: t0 },
        { ...base, version: 2, kind: 'field_changed', field: 'title', from: 'History', to: 'History 2', changed_at: t1 },
        { ...base, version: 2, kind: 'field_changed', field: 'value', from: 10, to: 20, changed_at: t1 },
        { ...base, version: 3, kind: 'stage_changed', field: 'stage', from: 'discovery', to: 'won', changed_at: t2 },
        { ...base, version: 4, kind: 'stage_changed', field: 'stage', from: 'won', to: 'proposal', changed_at: t3 },
        // Moved within the millisecond of the move before: dated just after it, in the order they committed.
        { ...base, version: 5, kind: 'stage_changed', field: 'stage', from: 'proposal', to: 'lost', changed_at: new Date(Date.parse(t3) + 1).toISOString(), lost_reason: 'timing' },
      ];
      expect((await get(`/deals/${deal.id}/history`)).body).toEqual({ object: 'list', data: expected, next_cursor: null });
      expect(await walk(`/deals/${deal.id}/history`, 2)).toEqual(expected);
    });

    it('adds and lists notes, paged, without moving the version', async () => {
      const deal = (await create({ store_id: 'st-b', title: 'Notes' })).body;
      const bodies = ['first call', 'sent the proposal', 'follow up in May', 'signed'];
      for (const body of bodies) {
        const r = await call(h.base, 'POST', `/deals/${deal.id}/notes`, { key: write, idem: freshIdem(), body: { body } });
        expect(r.status).toBe(201);
        expect(r.body).toMatchObject({ object: 'deal_note', deal_id: deal.id, body, actor: `key:${keyId}` });
      }
      expect((await walk(`/deals/${deal.id}/notes`, 3)).map((n) => n.body)).toEqual(bodies);
      expect((await get(`/deals/${deal.id}`)).body.version).toBe(1);
      expectProblem(await call(h.base, 'POST', `/deals/${deal.id}/notes`, { key: write, idem: freshIdem(), body: { body: '  ' } }), 400, 'invalid-body');
    });

    it('lists deals by stage, store, owner and update time, walking each exactly once', async () => {
      const fresh = await workspace(h.db);
      const k = await apiKey(h.db, fresh.id, ['read:accounts', 'write:deals']);
      await seedAccounts(h.db, fresh.id, [{ store_id: 's1', score: 0.5 }, { store_id: 's2', score: 0.4 }]);
      const made: any[] = [];
      for (let i = 0; i < 7; i++) {
        h.clock.advance(1000);
        const r = await create({ store_id: i % 2 ? 's2' : 's1', title: `d${i}`, owner_email: i < 3 ? 'ana@x.example' : 'bo@x.example', stage: i === 6 ? 'proposal' : 'discovery' }, k);
        made.push(r.body);
      }
      const since = h.clock.now().toISOString();
      h.clock.advance(1000);
      await patch(made[0].id, { title: 'd0 again' }, undefined, k);
      const list = async (q: string) => {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const r = await call(h.base, 'GET', `/deals?limit=2${q}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: k });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          seen.push(...r.body.data.map((x: any) => x.title));
          cursor = r.body.next_cursor;
        } while (cursor);
        return seen;
      };
      expect(await list('')).toEqual(['d0 again', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6']);
      expect(await list('&stage=proposal')).toEqual(['d6']);
      expect(await list('&store_id=s2')).toEqual(['d1', 'd3', 'd5']);
      expect(await list('&owner_email=ana@X.EXAMPLE')).toEqual(['d0 again', 'd1', 'd2']);
      expect(await list(`&updated_since=${encodeURIComponent(since)}`)).toEqual(['d0 again', 'd6']);
      expect(await list('&store_id=s1&owner_email=bo%40x.example')).toEqual(['d4', 'd6']);
      const first = await call(h.base, 'GET', '/deals?limit=2&store_id=s1', { key: k });
      expectProblem(await call(h.base, 'GET', `/deals?limit=2&store_id=s2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key: k }), 400, 'invalid-cursor');
      expectProblem(await call(h.base, 'GET', '/deals?updated_since=yesterday', { key: k }), 400, 'invalid-parameters');
      expectProblem(await call(h.base, 'GET', '/deals?stage=closed', { key: k }), 400, 'invalid-parameters');
    });

    it('writes deal events to the outbox with the change, and none for notes or a refused change', async () => {
      const fresh = await workspace(h.db);
      const k = await apiKey(h.db, fresh.id, ['read:accounts', 'write:deals']);
      const kid = (await h.db.kysely.selectFrom('api_keys').select('id').where('workspace_id', '=', fresh.id).executeTakeFirstOrThrow()).id;
      await seedAccounts(h.db, fresh.id, [{ store_id: 's1', score: 0.5 }]);
      // The deal's events (seeding s1 announced it joining the in-market list).
      const events = async () => (await listEvents(h.db.kysely, fresh.id)).filter((e) => e.type.startsWith('deal.'));
      const deal = (await create({ store_id: 's1', title: 'Evented', value: 5, currency: 'EUR' }, k)).body;
      expect(await events()).toMatchObject([{ type: 'deal.created', data: { deal_id: deal.id, store_id: 's1', deal, actor: `key:${kid}` } }]);
      const updated = (await patch(deal.id, { value: 6 }, '1', k)).body;
      expect((await events())[1]).toMatchObject({ type: 'deal.updated', data: { deal_id: deal.id, deal: updated, changes: [{ field: 'value', from: 5, to: 6 }], actor: `key:${kid}` } });
      h.clock.advance(5000);
      await move(deal.id, { stage: 'lost', lost_reason: 'no_response' }, '2', k);
      const all = await events();
      expect(all).toHaveLength(3);
      expect(all[2]).toEqual({
        id: expect.any(String),
        type: 'deal.stage_changed',
        created_at: h.clock.now().toISOString(),
        data: { deal_id: deal.id, store_id: 's1', from: 'discovery', to: 'lost', version: 3, changed_at: h.clock.now().toISOString(), actor: `key:${kid}`, lost_reason: 'no_response', lost_reason_other: null },
      });
      const outcomes = async () => (await listOutcomes(h.db.kysely, fresh.id)).length;
      const before = { events: all.length, outcomes: await outcomes(), history: (await get(`/deals/${deal.id}/history`, k)).body.data.length };
      await call(h.base, 'POST', `/deals/${deal.id}/notes`, { key: k, idem: freshIdem(), body: { body: 'quiet' } });
      expectProblem(await move(deal.id, { stage: 'won' }, '3', k), 422, 'unprocessable');
      expectProblem(await move(deal.id, { stage: 'proposal' }, '2', k), 409, 'conflict');
      expectProblem(await patch(deal.id, { value: 7 }, '1', k), 409, 'conflict');
      expect((await events()).length).toBe(before.events);
      expect(await outcomes()).toBe(before.outcomes);
      expect((await get(`/deals/${deal.id}/history`, k)).body.data.length).toBe(before.history);
      expect((await get(`/deals/${deal.id}`, k)).body).toMatchObject({ stage: 'lost', value: 6, version: 3 });
    });

    it('replays a repeated create under one Idempotency-Key and refuses the key with another body', async () => {
      const idem = freshIdem();
      const a = await call(h.base, 'POST', '/deals', { key: write, idem, body: { store_id: 'st-c', title: 'Once' } });
      const b = await call(h.base, 'POST', '/deals', { key: write, idem, body: { store_id: 'st-c', title: 'Once' } });
      expect(b.status).toBe(201);
      expect(b.headers.get('idempotent-replayed')).toBe('true');
      expect(b.body).toEqual(a.body);
      expectProblem(await call(h.base, 'POST', '/deals', { key: write, idem, body: { store_id: 'st-c', title: 'Twice' } }), 409, 'idempotency-key-reused');
      expect((await get('/deals?store_id=st-c&limit=200')).body.data.filter((x: any) => x.title === 'Once')).toHaveLength(1);
    });
  });

  describe.skipIf(d.skip)(`a deal's stage as a ranking label on ${d.label}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startApi(d.name, { operations: DEALS, rateLimits: LIMITS });
      const stores = Array.from({ length: 40 }, (_, i) => ({ store_id: `st${i}`, country: i % 3 ? 'US' : 'GB', category: i % 2 ? 'toys' : 'beauty', plan: 'grow', monthly_visits: 500 + i }));
      await seedRun(h.db, '2026-10', 'run-2026-10', stores, stores.map((s) => ({ store_id: s.store_id, type: 'app_installed' as const, subject: 'klaviyo' })));
    });
    afterAll(async () => {
      await h?.close();
    });

    it('moves the store\'s label with the deal: won scores it above lost', async () => {
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals']);
      const now = () => h.clock.now();
      await refreshWorkspace(h.db, ws.id, now());
      const score = async () => (await call(h.base, 'GET', '/accounts/st3', { key })).body.score as number;
      const deal = (await call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body: { store_id: 'st3', title: 'Label', value: 900, currency: 'USD' } })).body;
      expect(labelsOf(await listOutcomes(h.db.kysely, ws.id))).toEqual([{ store_id: 'st3', y: 1, weight: 0.15 }]);
      await call(h.base, 'POST', `/deals/${deal.id}/stage`, { key, idem: freshIdem(), body: { stage: 'won' } });
      const won = await refreshWorkspace(h.db, ws.id, now());
      expect(won).toMatchObject({ refreshed: true, labels: 1 });
      const wonScore = await score();
      const outcomes = await listOutcomes(h.db.kysely, ws.id);
      expect(outcomes.at(-1)).toMatchObject({ store_id: 'st3', action: 'won', value: 900, deal_id: deal.id });
      await call(h.base, 'POST', `/deals/${deal.id}/stage`, { key, idem: freshIdem(), body: { stage: 'qualifying' } });
      await call(h.base, 'POST', `/deals/${deal.id}/stage`, { key, idem: freshIdem(), body: { stage: 'lost', lost_reason: 'not_a_fit' } });
      expect(labelsOf(await listOutcomes(h.db.kysely, ws.id))).toEqual([{ store_id: 'st3', y: 0, weight: 1 }]);
      expect(await refreshWorkspace(h.db, ws.id, now())).toMatchObject({ refreshed: true, labels: 1 });
      expect(await score()).toBeLessThan(wonScore);
    });

    it('dates a move after the deal\'s last change: a request that started first and committed second is the store\'s label', async () => {
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals']);
      await refreshWorkspace(h.db, ws.id, h.clock.now());
      const t0 = h.clock.now().getTime();
      const created = await call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body: { store_id: 'st4', title: 'Race', stage: 'proposal' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const deal = created.body;
      // One request moves it to won at t0 + 10 s; another, whose clock read t0 + 5 s (it started
      // first, and waited for the deal's row), then moves it to discovery.
      h.clock.set(new Date(t0 + 10_000).toISOString());
      const won = (await call(h.base, 'POST', `/deals/${deal.id}/stage`, { key, idem: freshIdem(), body: { stage: 'won' } })).body;
      h.clock.set(new Date(t0 + 5_000).toISOString());
      const back = (await call(h.base, 'POST', `/deals/${deal.id}/stage`, { key, idem: freshIdem(), body: { stage: 'discovery' } })).body;
      expect(back).toMatchObject({ stage: 'discovery', version: 3 });
      expect(Date.parse(back.updated_at)).toBeGreaterThan(Date.parse(won.updated_at));
      expect(labelsOf(await listOutcomes(h.db.kysely, ws.id))).toEqual(labelsOf([{ store_id: 'st4', action: 'discovery' }]));
      const history = (await call(h.base, 'GET', `/deals/${deal.id}/history`, { key })).body.data as { to: string; created_at: string }[];
      expect(history.map((c) => c.to)).toEqual(['proposal', 'won', 'discovery']);
      const times = history.map((c) => Date.parse(c.created_at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // A change to the deal's fields is dated after it too (a sync by updated_since misses nothing).
      const edited = (await call(h.base, 'PATCH', `/deals/${deal.id}`, { key, idem: freshIdem(), body: { title: 'Race 2' } })).body;
      expect(Date.parse(edited.updated_at)).toBeGreaterThan(Date.parse(back.updated_at));
      h.clock.set(new Date(t0 + 60_000).toISOString());
    });
  });
}
