import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_CHOICES, type AccessChoice, keyScopes } from '../../src/api/scopes.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { addActivation } from '../../src/workspaces/store.js';
import { dialects } from '../helpers/db.js';
import { WORKING } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const CHOICES = Object.keys(ACCESS_CHOICES) as AccessChoice[];

/** Every non-empty combination of the three self-serve choices. */
const COMBINATIONS: AccessChoice[][] = [];
for (let mask = 1; mask < 1 << CHOICES.length; mask++) COMBINATIONS.push(CHOICES.filter((_, i) => mask & (1 << i)));

/** The working operations, and the report operation behind an activation the workspace has. */
const OPERATIONS = { ...WORKING, request_growth_report: { availability: 'activation-gated', activation: 'growth_reports' } } as const;

describe('self-serve choices', () => {
  it('grant exactly the scopes of the key form', () => {
    expect(keyScopes(['read'])).toEqual(['read:accounts', 'read:watch']);
    expect(keyScopes(['write-outcomes'])).toEqual(['write:outcomes']);
    expect(keyScopes(['reports'])).toEqual(['generate:reports']);
    for (const c of COMBINATIONS) expect(keyScopes(c)).not.toContain('manage:webhooks');
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`scope matrix on ${d.label}`, () => {
    let h: Harness;
    let wsId: string;
    beforeAll(async () => {
      h = await startApi(d.name, { operations: OPERATIONS  });
      wsId = (await workspace(h.db)).id;
      await h.db.write((trx) => addActivation(trx, wsId, 'growth_reports'));
    });
    afterAll(async () => {
      await h?.close();
    });

    it.each(COMBINATIONS.map((c) => [c.join('+'), c] as const))('key with %s reaches exactly the operations of its scopes', async (_n, choices) => {
      const key = await apiKey(h.db, wsId, keyScopes(choices));
      const list = await call(h.base, 'GET', '/accounts', { key });
      expect(list.status).toBe(choices.includes('read') ? 200 : 403);
      const outcome = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 's', action: 'won' } });
      expect(outcome.status).toBe(choices.includes('write-outcomes') ? 200 : 403);
      const ep = await insertWebhookEndpoint(h.db.kysely, wsId, { url: 'https://example.com/h' }, new Date());
      const del = await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key, idem: freshIdem() });
      expect(del.status).toBe(403);
      // A body without store_id: a key with the scope gets past the scope check to the body check.
      const report = await call(h.base, 'POST', '/reports/growth', { key, idem: freshIdem(), body: {} });
      expect(report.status).toBe(choices.includes('reports') ? 400 : 403);
      for (const r of [list, outcome, del, report].filter((x) => x.status === 403)) {
        expect(r.body.type).toBe('https://storelens.dev/problems/insufficient-scope');
      }
    });

    it('an operator-granted manage:webhooks key deletes webhooks', async () => {
      const key = await apiKey(h.db, wsId, keyScopes([], ['manage:webhooks']));
      const ep = await insertWebhookEndpoint(h.db.kysely, wsId, { url: 'https://example.com/h' }, new Date());
      expect((await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key, idem: freshIdem() })).status).toBe(200);
      expect((await call(h.base, 'GET', '/accounts', { key })).status).toBe(403);
    });
  });
}
