/** `storelens workspaces profile W`: owner/admin only, validated, `--json` prints what is stored. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfile, setProfile } from '../../src/accounts/profile-store.js';
import { seedRun } from '../helpers/accounts.js';
import { adminCli, seedAcme } from '../helpers/cli.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`storelens workspaces profile on ${d.label}`, () => {
    let t: TestDb;
    let wsId: string;

    const run = adminCli(() => t);
    const profile = (...args: string[]) => run('workspaces', 'profile', 'acme', ...args);

    beforeAll(async () => {
      t = await freshDb(d.name);
      wsId = await seedAcme(run);
    });
    afterAll(async () => t?.cleanup());

    it('sets the profile from the flags and prints {workspace_id, profile}', async () => {
      const r = await profile(
        '--as', 'owner@acme.test', '--countries', 'US,GB', '--categories', 'apparel,beauty', '--category', 'home, garden',
        '--plans', 'plus,advanced', '--min-visits', '0', '--max-visits', '50000', '--min-revenue', '1000.50', '--max-products', '900', '--json',
      );
      expect(r.code).toBe(0);
      const expected = {
        countries: ['US', 'GB'],
        categories: ['apparel', 'beauty', 'home, garden'],
        plans: ['plus', 'advanced'],
        min_visits: 0,
        max_visits: 50000,
        min_revenue_usd: 1000.5,
        max_products: 900,
      };
      expect(r.json).toEqual({ workspace_id: wsId, profile: expected, updated_at: '2026-02-01T09:00:00.000Z' });
      const stored = await getProfile(t.db.kysely, wsId);
      expect(stored).toEqual({ workspace_id: wsId, profile: expected, updated_at: '2026-02-01T09:00:00.000Z' });
    });

    it('replaces the whole profile, prints it without options, and clears it with --clear', async () => {
      expect((await profile('--as', 'admin@acme.test', '--plans', 'plus', '--json')).json.profile).toEqual({ plans: ['plus'] });
      expect((await profile('--as', 'admin@acme.test', '--json')).json).toEqual({ workspace_id: wsId, profile: { plans: ['plus'] }, updated_at: '2026-02-01T09:00:00.001Z' });
      expect((await profile('--as', 'admin@acme.test')).stdout).toContain('plans: ["plus"]');
      expect((await profile('--as', 'admin@acme.test', '--clear', '--json')).json).toEqual({ workspace_id: wsId, profile: null, updated_at: '2026-02-01T09:00:00.002Z' });
      expect((await getProfile(t.db.kysely, wsId)).profile).toBeNull();
      expect((await profile('--as', 'admin@acme.test')).stdout).toMatch(/no profile: it sees every store/);
    });

    it('refuses a member (exit 2) and changes nothing', async () => {
      await profile('--as', 'owner@acme.test', '--countries', 'DE', '--json');
      const r = await profile('--as', 'member@acme.test', '--countries', 'US', '--json');
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(/member@acme\.test is a member of workspace "acme"; only an owner or admin can set the profile/);
      expect((await profile('--as', 'stranger@acme.test', '--countries', 'US')).code).toBe(2);
      expect((await getProfile(t.db.kysely, wsId)).profile).toEqual({ countries: ['DE'] });
    });

    it.each([
      ['--countries', ['--countries', 'Germany']],
      ['--countries', ['--countries', 'US,,GB']],
      ['--plans', ['--plans', 'plus,']],
      ['--min-visits', ['--min-visits', '-1']],
      ['--max-visits', ['--max-visits', '1e3']],
      ['--min-revenue', ['--min-revenue', 'lots']],
      ['--min-products', ['--min-products', '12.5']],
      ['--min-visits', ['--min-visits', '10', '--max-visits', '5']],
      ['--clear', ['--clear', '--plans', 'plus']],
    ])('exits 2 naming %s for bad values, writing nothing', async (flag, args) => {
      const before = await getProfile(t.db.kysely, wsId);
      const r = await profile('--as', 'owner@acme.test', ...args, '--json');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(flag);
      expect(r.stdout).toBe('');
      expect(await getProfile(t.db.kysely, wsId)).toEqual(before);
    });

    it('warns of a list value no store of the latest ingested month has, naming the one differing only in case', async () => {
      // --categories Apparel was stored without a word, and the workspace saw none of its apparel stores.
      const before = await profile('--as', 'owner@acme.test', '--categories', 'Apparel');
      expect([before.code, before.stderr]).toEqual([0, '']); // nothing ingested: nothing to compare with
      await seedRun(t.db, '2026-02', 'run-feb', [{ store_id: 'old', category: 'Toys', plan: 'grow', country: 'FR' }], []);
      await seedRun(t.db, '2026-03', 'run-mar', [
        { store_id: 'a', category: 'apparel', plan: 'plus', country: 'US' },
        { store_id: 'b', category: 'beauty', plan: 'grow', country: 'GB' },
      ], []);
      const r = await profile('--as', 'owner@acme.test', '--categories', 'Apparel,beauty,Toys', '--plans', 'plus', '--countries', 'US,DE', '--json');
      expect(r.code).toBe(0);
      expect(r.json.profile).toEqual({ categories: ['Apparel', 'beauty', 'Toys'], plans: ['plus'], countries: ['US', 'DE'] });
      expect(r.stderr.trim().split('\n')).toEqual([
        'warning: --countries: no store of 2026-03 (the latest month ingested) has the country "DE": values are compared exactly; the workspace sees no store of it',
        'warning: --categories: no store of 2026-03 (the latest month ingested) has the category "Apparel": values are compared exactly (did you mean "apparel"?); the workspace sees no store of it',
        'warning: --categories: no store of 2026-03 (the latest month ingested) has the category "Toys": values are compared exactly; the workspace sees no store of it',
      ]);
      expect((await profile('--as', 'owner@acme.test', '--categories', 'apparel', '--json')).stderr).toBe('');
    });

    it('moves updated_at past the last one when a writer whose clock is behind sets the profile after it', async () => {
      // Another machine's `workspaces profile` wrote at 10:00, and a reader saw it; this one's clock says 09:00.
      await t.db.write((trx) => setProfile(trx, wsId, { plans: ['basic'] }, new Date('2026-02-01T10:00:00.000Z')));
      const seen = (await getProfile(t.db.kysely, wsId)).updated_at!;
      const r = await profile('--as', 'owner@acme.test', '--plans', 'plus', '--json');
      // Kept at 10:00 (or put back to 09:00), the reader's "changed since 10:00" found no change.
      const later = { workspace_id: wsId, profile: { plans: ['plus'] }, updated_at: '2026-02-01T10:00:00.001Z' };
      expect(r.code).toBe(0);
      expect(await getProfile(t.db.kysely, wsId)).toEqual(later);
      expect(later.updated_at > seen).toBe(true);
      // Across a second boundary too, in the same text form.
      await t.db.write((trx) => setProfile(trx, wsId, { plans: ['basic'] }, new Date('2026-02-01T10:59:59.999Z')));
      expect((await t.db.write((trx) => setProfile(trx, wsId, { plans: ['plus'] }, new Date('2026-02-01T09:00:00.000Z')))).updated_at).toBe('2026-02-01T11:00:00.000Z');
    });

    it('names the workspace it cannot find', async () => {
      const r = await run('workspaces', 'profile', 'nope', '--as', 'owner@acme.test', '--plans', 'plus');
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('no workspace "nope"')]);
    });
  });
}
