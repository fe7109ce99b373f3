import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CAPABILITIES_PATH, capabilityReader } from '../../src/api/capabilities.js';
import { IDEMPOTENCY_TTL_MS } from '../../src/api/idempotency.js';
import { routeById } from '../../src/compose/modules.js';
import { dialects } from '../helpers/db.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { suiteTempDir } from '../helpers/tmp.js';

/** The manifests the tests write, removed after the file. */
const CAPS = suiteTempDir('storelens-caps-');

const PROBLEM = 'https://storelens.dev/problems/';

/** The default manifest without the given operations. */
function manifestWithout(...ids: string[]): string {
  const m = JSON.parse(readFileSync(DEFAULT_CAPABILITIES_PATH, 'utf8'));
  for (const id of ids) delete m.operations[id];
  const path = join(mkdtempSync(join(CAPS, 'm-')), 'capabilities.json');
  writeFileSync(path, JSON.stringify(m));
  return path;
}

describe('the capability manifest', () => {
  it('gives an operation it does not list the availability its route plans', () => {
    const lookup = capabilityReader(manifestWithout('list_accounts', 'get_current_list'));
    expect(routeById('list_accounts')!.planned).toBe('available');
    expect(lookup(routeById('list_accounts')!)).toEqual({ availability: 'available' });
    expect(lookup(routeById('get_current_list')!)).toEqual({ availability: 'unavailable' });
    expect(lookup({ operationId: 'list_accounts', planned: 'pilot' })).toEqual({ availability: 'pilot' });
  });

  it('decides over the plan for an operation it lists', () => {
    // The shipped manifest lists the wallet as it is planned: available; outreach as a pilot.
    const shipped = capabilityReader(DEFAULT_CAPABILITIES_PATH);
    expect(routeById('get_wallet')!.planned).toBe('available');
    expect(shipped(routeById('get_wallet')!)).toEqual({ availability: 'available' });
    expect(shipped(routeById('enroll_outreach')!)).toEqual({ availability: 'pilot' });
    expect(shipped(routeById('request_growth_report')!)).toEqual({ availability: 'activation-gated', activation: 'growth_reports' });
    // An operator who lists it otherwise wins over the plan.
    const m = JSON.parse(readFileSync(DEFAULT_CAPABILITIES_PATH, 'utf8'));
    m.operations.get_wallet = 'unavailable';
    const path = join(mkdtempSync(join(CAPS, 'm-')), 'capabilities.json');
    writeFileSync(path, JSON.stringify(m));
    expect(capabilityReader(path)(routeById('get_wallet')!)).toEqual({ availability: 'unavailable' });
  });

  it('makes every operation unavailable when it cannot be read', () => {
    const dir = mkdtempSync(join(CAPS, 'm-'));
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"operations": ');
    for (const path of [broken, join(dir, 'missing.json')]) {
      expect(capabilityReader(path)(routeById('list_accounts')!)).toEqual({ availability: 'unavailable' });
    }
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`planned availability and documented limits over HTTP on ${d.label}`, () => {
    let h: Harness;
    let key: string;
    beforeAll(async () => {
      h = await startApi(d.name, { capabilitiesPath: manifestWithout('list_accounts', 'get_current_list'), bodyLimit: 2048 });
      key = await apiKey(h.db, (await workspace(h.db)).id, ['read:accounts', 'write:outcomes']);
    });
    afterAll(async () => h?.close());

    it('serves an unlisted operation by its plan and labels it so in openapi.json', async () => {
      expect((await call(h.base, 'GET', '/accounts', { key })).status).toBe(200);
      const unlisted = await call(h.base, 'GET', '/current-list', { key });
      expect([unlisted.status, unlisted.body.type]).toEqual([404, PROBLEM + 'operation-unavailable']);
      const doc = (await call(h.base, 'GET', '/openapi.json')).body;
      expect(doc.paths['/accounts'].get['x-availability']).toBe('available');
      expect(doc.paths['/current-list'].get['x-availability']).toBe('unavailable');
    });

    it('documents the body limit the server enforces and the idempotency retention it keeps', async () => {
      const doc = (await call(h.base, 'GET', '/openapi.json')).body;
      expect(doc.components.responses.PayloadTooLarge.description).toContain('2 KiB');
      const hours = `${IDEMPOTENCY_TTL_MS / 3_600_000} hours`;
      expect(doc.components.parameters.IdempotencyKey.description).toContain(hours);
      expect(doc.info.description).toContain(hours);
      const big = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 's', action: 'won', note: 'x'.repeat(2100) } });
      expect([big.status, big.body.type]).toEqual([413, PROBLEM + 'payload-too-large']);
      const fits = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 's', action: 'won', note: 'x'.repeat(1900) } });
      expect(fits.status).toBe(200);
    });
  });
}
