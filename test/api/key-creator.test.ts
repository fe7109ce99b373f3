import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CAPABILITIES_PATH } from '../../src/api/capabilities.js';
import { OWNER_ADMIN_ONLY, SELF_SERVE_SCOPES } from '../../src/api/scopes.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { removeMember, upsertMember } from '../../src/members/store.js';
import { dialects } from '../helpers/db.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { suiteTempDir } from '../helpers/tmp.js';

/** The manifests the tests write, removed after the file. */
const CAPS = suiteTempDir('storelens-caps-');

const PROBLEM = 'https://storelens.dev/problems/';
const OWNER = 'owner@example.com';

/** The default manifest with set_account_status (scope write:deals) available. */
function manifestWithAccountStatus(): string {
  const m = JSON.parse(readFileSync(DEFAULT_CAPABILITIES_PATH, 'utf8'));
  m.operations.set_account_status = 'available';
  const path = join(mkdtempSync(join(CAPS, 'm-')), 'capabilities.json');
  writeFileSync(path, JSON.stringify(m));
  return path;
}

describe('scopes a member could not grant', () => {
  it('are every scope outside the self-serve key form', () => {
    expect(SELF_SERVE_SCOPES).toEqual(['read:accounts', 'read:watch', 'write:outcomes', 'generate:reports']);
    expect(OWNER_ADMIN_ONLY).toContain('manage:webhooks');
    expect(OWNER_ADMIN_ONLY).toContain('write:deals');
    for (const s of SELF_SERVE_SCOPES) expect(OWNER_ADMIN_ONLY).not.toContain(s);
  });
});

// A key keeps owner/admin-only scopes only while its creator is an owner or admin, and works at
// all only while its creator is a member: checked on every call, over a real socket.
for (const d of dialects) {
  describe.skipIf(d.skip)(`a key whose creator changes role on ${d.label}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startApi(d.name, { capabilitiesPath: manifestWithAccountStatus(), rateLimits: { read: 10_000, write: 10_000, report: 10_000 } });
    });
    afterAll(async () => h?.close());

    async function ownerKey() {
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'manage:webhooks', 'write:deals']);
      const deleteHook = async () => {
        const ep = await insertWebhookEndpoint(h.db.kysely, ws.id, { url: 'https://example.com/h' }, new Date());
        return call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key, idem: freshIdem() });
      };
      return { ws, key, deleteHook };
    }

    it('refuses manage:webhooks with 403 once the creator is demoted to member, and says why', async () => {
      const { ws, deleteHook } = await ownerKey();
      expect((await deleteHook()).status).toBe(200);
      await upsertMember(h.db.kysely, ws.id, OWNER, 'member', new Date());
      const r = await deleteHook();
      expect(r.status).toBe(403);
      expect(r.contentType).toMatch(/^application\/problem\+json/);
      expect(r.body).toMatchObject({ type: PROBLEM + 'insufficient-scope', required_scope: 'manage:webhooks' });
      expect(r.body.detail).toMatch(/owner or admin/);
      expect(r.body.detail).toContain(OWNER);
    });

    it('keeps self-serve scopes working for a demoted creator', async () => {
      const { ws, key } = await ownerKey();
      await upsertMember(h.db.kysely, ws.id, OWNER, 'member', new Date());
      expect((await call(h.base, 'GET', '/accounts', { key })).status).toBe(200);
    });

    it('applies the rule to every owner/admin-only scope, not only manage:webhooks', async () => {
      const { ws, key } = await ownerKey();
      const body = { status: 'working' };
      // An admitted key passes 403 and gets 404: the workspace has no account s1.
      const admitted = await call(h.base, 'POST', '/accounts/s1/status', { key, idem: freshIdem(), body });
      expect([admitted.status, admitted.body.type]).toEqual([404, PROBLEM + 'not-found']);
      await upsertMember(h.db.kysely, ws.id, OWNER, 'member', new Date());
      const r = await call(h.base, 'POST', '/accounts/s1/status', { key, idem: freshIdem(), body });
      expect(r.status).toBe(403);
      expect(r.body.required_scope).toBe('write:deals');
    });

    it('lets the key use those scopes again when the creator becomes an admin', async () => {
      const { ws, deleteHook } = await ownerKey();
      await upsertMember(h.db.kysely, ws.id, OWNER, 'member', new Date());
      expect((await deleteHook()).status).toBe(403);
      await upsertMember(h.db.kysely, ws.id, OWNER, 'admin', new Date());
      expect((await deleteHook()).status).toBe(200);
    });

    it('stops the key (401) once its creator is no longer a member, on routes known and unknown', async () => {
      const { ws, key } = await ownerKey();
      expect((await call(h.base, 'GET', '/accounts', { key })).status).toBe(200);
      expect(await removeMember(h.db.kysely, ws.id, OWNER)).toBe(true);
      for (const path of ['/accounts', '/no-such-route']) {
        const r = await call(h.base, 'GET', path, { key });
        expect(r.status).toBe(401);
        expect(r.body.type).toBe(PROBLEM + 'unauthorized');
        expect(r.body.detail).toMatch(/left the workspace/);
        expect(r.headers.get('www-authenticate')).toMatch(/^Bearer .*invalid_token/);
      }
    });

    it('does not let a member of another workspace with the same email keep the key alive', async () => {
      const { ws, key } = await ownerKey();
      const other = await workspace(h.db);
      await upsertMember(h.db.kysely, other.id, OWNER, 'owner', new Date());
      await removeMember(h.db.kysely, ws.id, OWNER);
      expect((await call(h.base, 'GET', '/accounts', { key })).status).toBe(401);
    });
  });
}
