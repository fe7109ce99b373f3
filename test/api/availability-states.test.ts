/**
 * Every wallet, supervision, report and outreach operation in every availability state, flipped
 * in the capability manifest of a running server (no restart): available (the handler answers),
 * pilot without access (404 pilot-required), activation-gated without the activation (404
 * activation-required) and unavailable (404 operation-unavailable); openapi.json and /docs
 * label each operation from the manifest as it is at that moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addActivation, setPilotAccess } from '../../src/workspaces/store.js';
import { dialects } from '../helpers/db.js';
import { capabilityManifest, type CapabilityManifest, type Operations } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';

/** Each operation, a call of it, and what its handler answers that call once it is reachable. */
const CALLS: { op: string; method: string; path: string; body?: unknown; answers: number }[] = [
  { op: 'get_wallet', method: 'GET', path: '/wallet', answers: 200 },
  { op: 'list_wallet_usage', method: 'GET', path: '/wallet/usage', answers: 200 },
  { op: 'get_wallet_pricing', method: 'GET', path: '/wallet/pricing', answers: 200 },
  { op: 'list_wallet_approvals', method: 'GET', path: '/wallet/approvals', answers: 200 },
  { op: 'get_wallet_rules', method: 'GET', path: '/wallet/rules', answers: 200 },
  { op: 'get_supervision', method: 'GET', path: '/supervision', answers: 200 },
  { op: 'request_growth_report', method: 'POST', path: '/reports/growth', body: { store_id: 'nowhere' }, answers: 404 },
  { op: 'list_growth_reports', method: 'GET', path: '/reports/growth', answers: 200 },
  { op: 'get_growth_report', method: 'GET', path: '/reports/growth/rep_none', answers: 404 },
  { op: 'list_outreach_cadences', method: 'GET', path: '/outreach/cadences', answers: 200 },
  { op: 'create_outreach_cadence', method: 'POST', path: '/outreach/cadences', body: { name: 'c', steps: [{ day: 0, name: 'hello' }] }, answers: 201 },
  { op: 'enroll_outreach', method: 'POST', path: '/outreach/enrollments', body: { store_id: 'nowhere', contact_id: 'c', cadence_id: 'c' }, answers: 404 },
  { op: 'list_outreach_enrollments', method: 'GET', path: '/outreach/enrollments', answers: 200 },
  { op: 'get_outreach_enrollment', method: 'GET', path: '/outreach/enrollments/enr_none', answers: 404 },
  { op: 'stop_outreach', method: 'POST', path: '/outreach/enrollments/enr_none/stop', answers: 404 },
];

const SCOPES = ['read:wallet', 'generate:reports', 'write:outreach'] as const;
const all = (entry: Operations[string]): Operations => Object.fromEntries(CALLS.map((c) => [c.op, entry]));

for (const d of dialects) {
  describe.skipIf(d.skip)(`availability of wallet, supervision, reports and outreach on ${d.label}`, () => {
    let h: Harness;
    let caps: CapabilityManifest;
    let plain: string;
    let allowed: string;
    beforeAll(async () => {
      caps = capabilityManifest(all('unavailable'));
      h = await startApi(d.name, { capabilitiesPath: caps.path, rateLimits: { read: 10_000, write: 10_000, report: 10_000 } });
      plain = await apiKey(h.db, (await workspace(h.db)).id, SCOPES);
      const ws = await workspace(h.db);
      await setPilotAccess(h.db.kysely, ws.id, true);
      await h.db.write((trx) => addActivation(trx, ws.id, 'growth_reports'));
      allowed = await apiKey(h.db, ws.id, SCOPES);
    });
    afterAll(async () => {
      await h?.close();
      caps?.remove();
    });

    const send = (c: (typeof CALLS)[number], key: string) => call(h.base, c.method, c.path, { key, body: c.body, idem: c.method === 'GET' ? undefined : freshIdem() });
    const labels = async () => {
      const doc = (await call(h.base, 'GET', '/openapi.json')).body;
      return Object.fromEntries((Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[]).map((o) => [o.operationId, o]));
    };

    it.each(CALLS)('$op answers 404 operation-unavailable while unavailable, and its handler once available', async (c) => {
      caps.write(all('unavailable'));
      const off = await send(c, allowed);
      expect(off.status).toBe(404);
      expect(off.body.type).toBe(`${PROBLEM}operation-unavailable`);
      expect((await labels())[c.op]['x-availability']).toBe('unavailable');
      caps.write(all('available'));
      const on = await send(c, plain);
      expect(on.status, JSON.stringify(on.body)).toBe(c.answers);
      if (on.status === 404) expect(on.body.type).toBe(`${PROBLEM}not-found`);
      expect((await labels())[c.op]['x-availability']).toBe('available');
    });

    it.each(CALLS)('$op answers 404 pilot-required as a pilot without access, and works with it', async (c) => {
      caps.write(all('pilot'));
      const r = await send(c, plain);
      expect(r.status).toBe(404);
      expect(r.body.type).toBe(`${PROBLEM}pilot-required`);
      expect((await send(c, allowed)).status).toBe(c.answers);
      expect((await labels())[c.op]['x-availability']).toBe('pilot');
    });

    it.each(CALLS)('$op answers 404 activation-required when gated without the activation, and works with it', async (c) => {
      caps.write(all({ availability: 'activation-gated', activation: 'growth_reports' }));
      const r = await send(c, plain);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ type: `${PROBLEM}activation-required`, activation: 'growth_reports' });
      expect((await send(c, allowed)).status).toBe(c.answers);
      expect((await labels())[c.op]).toMatchObject({ 'x-availability': 'activation-gated', 'x-activation': 'growth_reports' });
    });

    it('needs the scope of each operation once it is reachable (403)', async () => {
      caps.write(all('available'));
      const none = await apiKey(h.db, (await workspace(h.db)).id, ['read:accounts']);
      for (const c of CALLS) {
        const r = await send(c, none);
        expect(r.status, c.op).toBe(403);
        expect(r.body.type).toBe(`${PROBLEM}insufficient-scope`);
      }
    });

    it('labels the operations on /docs as the manifest says', async () => {
      caps.write({ ...all('available'), enroll_outreach: 'pilot' });
      const page = (await call(h.base, 'GET', '/docs')).body as string;
      expect(page).toContain('<span class="badge pilot">pilot</span>');
      expect(page).toContain('<span class="badge available">available</span>');
    });
  });
}
