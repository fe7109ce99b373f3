import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAccounts } from '../../src/accounts/store.js';
import { findWebhookEndpoint, insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { listOutcomes } from '../../src/accounts/outcomes-store.js';
import { addActivation, setPilotAccess } from '../../src/workspaces/store.js';
import { revokeApiKey, listApiKeys } from '../../src/api/keys-store.js';
import { dialects } from '../helpers/db.js';
import { capabilityManifest, WORKING } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type CallResult, type Harness } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';
const ALL = ['read:accounts', 'read:watch', 'write:outcomes', 'generate:reports', 'manage:webhooks', 'write:outreach', 'write:deals'] as const;

function expectProblem(r: CallResult, status: number, kind: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.contentType).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ type: PROBLEM + kind, status });
  expect(typeof r.body.title).toBe('string');
  expect(typeof r.body.detail).toBe('string');
  expect(r.headers.get('cache-control')).toBe('no-store');
}

/** The working operations, and two published ones this manifest marks unavailable. */
const OPERATIONS = { ...WORKING, get_current_list: 'unavailable', create_deal: 'unavailable' } as const;
/** Working operations behind each gate, so passing a gate answers what the operation does. */
const GATED = { list_accounts: 'pilot', record_outcome: { availability: 'activation-gated', activation: 'outcome_tracking' }, delete_webhook: 'unavailable' } as const;

const valid = { store_id: 'store-1', action: 'won', value: 1200 };

for (const d of dialects) {
  describe.skipIf(d.skip)(`status codes on ${d.label}`, () => {
    let h: Harness;
    let gated: Harness;
    let wsId: string;
    let key: string;
    beforeAll(async () => {
      h = await startApi(d.name, { operations: OPERATIONS, rateLimits: { read: 10_000, write: 10_000, report: 10_000 } });
      gated = await startApi(d.name, { operations: GATED });
      const ws = await workspace(h.db);
      wsId = ws.id;
      key = await apiKey(h.db, ws.id, ALL);
    });
    afterAll(async () => {
      await h?.close();
      await gated?.close();
    });

    describe('401', () => {
      it('answers 401 with WWW-Authenticate when the Authorization header is missing', async () => {
        const r = await call(h.base, 'GET', '/accounts');
        expectProblem(r, 401, 'unauthorized');
        expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      });
      // RFC 6750 §3.1: no error code for another scheme, invalid_request for a malformed request,
      // invalid_token for a token that is not (or no longer) a key.
      it.each([
        ['not Bearer', 'Basic abc', 'Bearer realm="storelens"'],
        ['empty Bearer', 'Bearer ', 'Bearer realm="storelens", error="invalid_request"'],
        ['Bearer glued to its token', 'Bearerslk_x', 'Bearer realm="storelens"'],
        ['malformed key', 'Bearer nope', 'Bearer realm="storelens", error="invalid_token"'],
        ['unknown key', `Bearer slk_000000000000_${'A'.repeat(43)}`, 'Bearer realm="storelens", error="invalid_token"'],
      ])('answers 401 for a %s', async (_n, header, challenge) => {
        const r = await call(h.base, 'POST', '/outcomes', { headers: { authorization: header }, idem: freshIdem(), body: valid });
        expectProblem(r, 401, 'unauthorized');
        expect(r.headers.get('www-authenticate')).toBe(challenge);
      });
      it('answers 401 for a revoked key', async () => {
        const ws = await workspace(h.db);
        const k = await apiKey(h.db, ws.id, ['read:accounts']);
        expect((await call(h.base, 'GET', '/accounts', { key: k })).status).toBe(200);
        const [row] = await listApiKeys(h.db.kysely, ws.id);
        await revokeApiKey(h.db.kysely, ws.id, row!.id, new Date());
        expectProblem(await call(h.base, 'GET', '/accounts', { key: k }), 401, 'unauthorized');
      });
      it('checks the key before telling whether a route exists', async () => {
        expectProblem(await call(h.base, 'GET', '/no-such-thing'), 401, 'unauthorized');
      });
      it('records when a key was last used', async () => {
        const ws = await workspace(h.db);
        const k = await apiKey(h.db, ws.id, ['read:accounts']);
        await call(h.base, 'GET', '/accounts', { key: k });
        const [row] = await listApiKeys(h.db.kysely, ws.id);
        expect(row!.last_used_at).toBe(h.clock.now().toISOString());
      });
    });

    describe('404 and 405', () => {
      it('answers 404 problem+json for an unknown route', async () => {
        expectProblem(await call(h.base, 'GET', '/nothing/here', { key }), 404, 'not-found');
        const slash = await call(h.base, 'GET', '/accounts/', { key });
        expect(slash.status).toBe(404);
        expect(slash.contentType).toMatch(/problem\+json/);
      });
      it('answers 404 outside /api/v1 too', async () => {
        const r = await call(h.base.replace('/api/v1', ''), 'GET', '/elsewhere');
        expect(r.status).toBe(404);
        expect(r.contentType).toMatch(/problem\+json/);
      });
      it('answers 405 with Allow for a known path and another method', async () => {
        const r = await call(h.base, 'PUT', '/outcomes', { key });
        expectProblem(r, 405, 'method-not-allowed');
        expect(r.headers.get('allow')).toBe('POST');
        expect((await call(h.base, 'POST', '/webhooks/whe_1', { key })).headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE');
      });
      it('answers HEAD of a read as its GET, without the body, counted like it', async () => {
        const get = await fetch(`${h.base}/webhooks?limit=1`, { headers: { authorization: `Bearer ${key}` } });
        const head = await fetch(`${h.base}/webhooks?limit=1`, { method: 'HEAD', headers: { authorization: `Bearer ${key}` } });
        expect(head.status).toBe(get.status);
        expect(await head.text()).toBe('');
        expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
        const remaining = (r: Response) => Number(/;r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]);
        expect(remaining(head)).toBe(remaining(get) - 1);
        // Without a key, the same 401 as a GET.
        expect((await fetch(`${h.base}/webhooks`, { method: 'HEAD' })).status).toBe(401);
        expect((await fetch(`${h.base}/openapi.json`, { method: 'HEAD' })).status).toBe(200);
      });
      it('answers 404 operation-unavailable for a published but unavailable operation', async () => {
        expectProblem(await call(h.base, 'GET', '/current-list', { key }), 404, 'operation-unavailable');
        expectProblem(await call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body: {} }), 404, 'operation-unavailable');
      });
      it('answers 404 operation-unavailable for a working operation the manifest marks unavailable, and leaves its data alone', async () => {
        const ws = await workspace(gated.db);
        const k = await apiKey(gated.db, ws.id, ['manage:webhooks']);
        const ep = await insertWebhookEndpoint(gated.db.kysely, ws.id, { url: 'https://example.com/hook' }, new Date());
        expectProblem(await call(gated.base, 'DELETE', `/webhooks/${ep.id}`, { key: k, idem: freshIdem() }), 404, 'operation-unavailable');
        expect(await findWebhookEndpoint(gated.db.kysely, ws.id, ep.id)).toMatchObject({ id: ep.id, deleted_at: null });
      });
      it('answers 404 pilot-required without pilot access, then passes the gate with it', async () => {
        const ws = await workspace(gated.db);
        await importAccounts(gated.db, ws.id, [{ store_id: 'top', score: 9 }], new Date());
        const k = await apiKey(gated.db, ws.id, ['read:accounts']);
        expectProblem(await call(gated.base, 'GET', '/accounts', { key: k }), 404, 'pilot-required');
        await setPilotAccess(gated.db.kysely, ws.id, true);
        const r = await call(gated.base, 'GET', '/accounts', { key: k });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ object: 'list', data: [{ object: 'account', store_id: 'top' }], next_cursor: null });
      });
      it('answers 404 activation-required without the activation', async () => {
        const ws = await workspace(gated.db);
        const k = await apiKey(gated.db, ws.id, ['write:outcomes']);
        const r = await call(gated.base, 'POST', '/outcomes', { key: k, idem: freshIdem(), body: valid });
        expectProblem(r, 404, 'activation-required');
        expect(r.body.activation).toBe('outcome_tracking');
        expect(await listOutcomes(gated.db.kysely, ws.id)).toEqual([]);
        await gated.db.write((trx) => addActivation(trx, ws.id, 'outcome_tracking'));
        const r2 = await call(gated.base, 'POST', '/outcomes', { key: k, idem: freshIdem(), body: valid });
        expect(r2.status).toBe(200);
        expect(r2.body).toMatchObject({ object: 'outcome', ...valid });
        expect((await listOutcomes(gated.db.kysely, ws.id)).map((o) => o.id)).toEqual([r2.body.id]);
      });
      it('reads the manifest at call time', async () => {
        const manifest = capabilityManifest(WORKING);
        const other = await startApi(d.name, { capabilitiesPath: manifest.path });
        try {
          const ws = await workspace(other.db);
          const k = await apiKey(other.db, ws.id, ['read:accounts']);
          expect((await call(other.base, 'GET', '/accounts', { key: k })).status).toBe(200);
          manifest.write({ ...WORKING, list_accounts: 'unavailable' });
          expectProblem(await call(other.base, 'GET', '/accounts', { key: k }), 404, 'operation-unavailable');
          manifest.write(WORKING);
          expect((await call(other.base, 'GET', '/accounts', { key: k })).status).toBe(200);
        } finally {
          await other.close();
          manifest.remove();
        }
      });
    });

    describe('403', () => {
      it('names the missing scope', async () => {
        const k = await apiKey(h.db, wsId, ['read:accounts']);
        const r = await call(h.base, 'POST', '/outcomes', { key: k, idem: freshIdem(), body: valid });
        expectProblem(r, 403, 'insufficient-scope');
        expect(r.body.detail).toContain('write:outcomes');
      });
      it('answers 404 before 403 for an unavailable operation', async () => {
        const k = await apiKey(h.db, wsId, ['read:watch']);
        expectProblem(await call(h.base, 'GET', '/current-list', { key: k }), 404, 'operation-unavailable');
      });
      it('answers 404 before 403 for a gate the workspace has not passed', async () => {
        const ws = await workspace(gated.db);
        const k = await apiKey(gated.db, ws.id, ['read:watch']);
        expectProblem(await call(gated.base, 'GET', '/accounts', { key: k }), 404, 'pilot-required');
        expectProblem(await call(gated.base, 'POST', '/outcomes', { key: k, idem: freshIdem(), body: valid }), 404, 'activation-required');
      });
      it('answers 403 before 400 for a missing Idempotency-Key', async () => {
        const k = await apiKey(h.db, wsId, ['read:accounts']);
        expectProblem(await call(h.base, 'POST', '/outcomes', { key: k, body: valid }), 403, 'insufficient-scope');
      });
    });

    describe('POST /outcomes', () => {
      it('answers 200 with the recorded outcome, accepting an unknown store', async () => {
        const body = { store_id: '=unknown,store', action: 'lost', lost_reason: 'other', lost_reason_other: 'moved', occurred_at: 'last tuesday', note: 'n' };
        const r = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body });
        expect(r.status).toBe(200);
        expect(r.contentType).toMatch(/^application\/json/);
        expect(r.headers.get('cache-control')).toBe('no-store');
        expect(r.body).toMatchObject({ object: 'outcome', ...body, value: null, recorded_at: h.clock.now().toISOString() });
        expect(r.body.id).toMatch(/^out_/);
      });
      it.each([
        ['store_id missing', { action: 'won' }],
        ['action missing', { store_id: 's' }],
        ['unknown action', { store_id: 's', action: 'maybe' }],
        ['store_id not a string', { store_id: 5, action: 'won' }],
        ['value not a number', { store_id: 's', action: 'won', value: '5' }],
        ['lost without lost_reason', { store_id: 's', action: 'lost' }],
        ['unknown lost_reason', { store_id: 's', action: 'lost', lost_reason: 'weather' }],
        ['other without lost_reason_other', { store_id: 's', action: 'lost', lost_reason: 'other' }],
        ['an unknown field', { store_id: 's', action: 'won', extra: 1 }],
        ['an array body', [valid]],
        ['a null body', null],
      ])('answers 400 when %s', async (_n, body) => {
        expectProblem(await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body }), 400, 'invalid-body');
      });
      it('accepts every lost_reason when action is lost', async () => {
        for (const lost_reason of ['no_response', 'timing', 'budget', 'chose_another_agency', 'project_cancelled', 'not_a_fit']) {
          const r = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 's', action: 'lost', lost_reason } });
          expect(r.status).toBe(200);
        }
      });
      it.each(['application/json; charset=utf-8', 'Application/JSON'])('accepts Content-Type %s', async (ct) => {
        const r = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), rawBody: JSON.stringify(valid), headers: { 'content-type': ct } });
        expect(r.status).toBe(200);
      });
      it('answers 400 for malformed JSON and an empty body', async () => {
        expectProblem(await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), rawBody: '{"store_id":' }), 400, 'malformed-json');
        expectProblem(await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), rawBody: '' }), 400, 'invalid-body');
      });
      it.each([
        ['missing', undefined],
        ['empty', ''],
        ['over 255 characters', 'k'.repeat(256)],
      ])('answers 400 when the Idempotency-Key is %s', async (_n, idem) => {
        expectProblem(await call(h.base, 'POST', '/outcomes', { key, idem, body: valid }), 400, 'idempotency-key-required');
      });
      it('accepts an Idempotency-Key of exactly 255 characters', async () => {
        expect((await call(h.base, 'POST', '/outcomes', { key, idem: 'k'.repeat(255), body: valid })).status).toBe(200);
      });
      it('checks the Idempotency-Key before the body', async () => {
        expectProblem(await call(h.base, 'POST', '/outcomes', { key, rawBody: '{oops' }), 400, 'idempotency-key-required');
      });
      it('answers 413 for a body over the limit and 415 for another media type', async () => {
        const big = { ...valid, note: 'x'.repeat(70 * 1024) };
        expectProblem(await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: big }), 413, 'payload-too-large');
        const r = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), rawBody: 'store_id=s', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
        expectProblem(r, 415, 'unsupported-media-type');
      });
      it('records nothing for rejected requests', async () => {
        const ws = await workspace(h.db);
        const k = await apiKey(h.db, ws.id, ['write:outcomes']);
        expectProblem(await call(h.base, 'POST', '/outcomes', { key: k, idem: freshIdem(), body: { store_id: 's', action: 'lost' } }), 400, 'invalid-body');
        expectProblem(await call(h.base, 'POST', '/outcomes', { key: k, body: valid }), 400, 'idempotency-key-required');
        expect(await listOutcomes(h.db.kysely, ws.id)).toEqual([]);
        const accepted = await call(h.base, 'POST', '/outcomes', { key: k, idem: freshIdem(), body: valid });
        expect((await listOutcomes(h.db.kysely, ws.id)).map((o) => o.id)).toEqual([accepted.body.id]);
      });
    });

    describe('DELETE /webhooks/{id}', () => {
      it('answers 200 {id, deleted: true}, then 404 for a new request, and replays the 200', async () => {
        const ep = await insertWebhookEndpoint(h.db.kysely, wsId, { url: 'https://example.com/hook' }, new Date());
        const idem = freshIdem();
        const r = await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key, idem });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ id: ep.id, deleted: true });
        const again = await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key, idem });
        expect(again.status).toBe(200);
        expect(again.body).toEqual(r.body);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expectProblem(await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key, idem: freshIdem() }), 404, 'not-found');
      });
      it('answers a 4xx problem, never 405, for an over-long id', async () => {
        const long = await call(h.base, 'DELETE', `/webhooks/${'w'.repeat(600)}`, { key, idem: freshIdem() });
        expect([400, 404]).toContain(long.status);
        expect(long.contentType).toMatch(/problem\+json/);
        expectProblem(await call(h.base, 'DELETE', `/webhooks/${'w'.repeat(300)}`, { key, idem: freshIdem() }), 400, 'invalid-parameters');
      });
      it('answers 404 for an unknown id and 400 without an Idempotency-Key', async () => {
        expectProblem(await call(h.base, 'DELETE', '/webhooks/whe_nope', { key, idem: freshIdem() }), 404, 'not-found');
        expectProblem(await call(h.base, 'DELETE', '/webhooks/whe_nope', { key }), 400, 'idempotency-key-required');
      });
      it('answers 403 without manage:webhooks', async () => {
        const k = await apiKey(h.db, wsId, ['read:accounts', 'write:outcomes', 'generate:reports']);
        expectProblem(await call(h.base, 'DELETE', '/webhooks/whe_x', { key: k, idem: freshIdem() }), 403, 'insufficient-scope');
      });
    });

    describe('GET /accounts', () => {
      it.each(['0', '201', '-1', 'abc', '1.5'])('answers 400 for limit=%s', async (limit) => {
        expectProblem(await call(h.base, 'GET', `/accounts?limit=${limit}`, { key }), 400, 'invalid-parameters');
      });
      it('answers 400 for an unknown query parameter', async () => {
        expectProblem(await call(h.base, 'GET', '/accounts?colour=red', { key }), 400, 'invalid-parameters');
      });
      it('needs no key for openapi.json and docs', async () => {
        expect((await call(h.base, 'GET', '/openapi.json')).status).toBe(200);
        const docs = await call(h.base, 'GET', '/docs');
        expect(docs.status).toBe(200);
        expect(docs.contentType).toMatch(/text\/html/);
        expect(docs.body).not.toMatch(/<(script|link)[^>]+(src|href)="https?:/);
        expect(docs.headers.get('cache-control')).toBe('no-store');
        expectProblem(await call(h.base, 'POST', '/openapi.json'), 405, 'method-not-allowed');
      });
    });
  });
}
