/**
 * `storelens workspaces wallet-visibility W [owners|all]`: owner/admin only, validated, and what
 * it stores is what the assistant connector's grants are derived from (members/grants.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletVisibility } from '../../src/workspaces/store.js';
import { memberGrants } from '../../src/members/grants.js';
import type { Role } from '../../src/core/roles.js';
import { adminCli, seedAcme } from '../helpers/cli.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`storelens workspaces wallet-visibility on ${d.label}`, () => {
    let t: TestDb;
    let wsId: string;

    const run = adminCli(() => t);
    const visibility = (...args: string[]) => run('workspaces', 'wallet-visibility', 'acme', ...args);
    const stored = () => walletVisibility(t.db.kysely, wsId);
    /** The grants the OAuth path derives for a signed-in member with `role` in acme, now. */
    const grantsOf = async (role: Role) => memberGrants(role, await stored());

    beforeAll(async () => {
      t = await freshDb(d.name);
      wsId = await seedAcme(run);
    });
    afterAll(async () => t?.cleanup());

    it('prints the default, owners, without a value', async () => {
      const r = await visibility('--as', 'owner@acme.test', '--json');
      expect(r.code).toBe(0);
      expect(r.json).toEqual({ workspace_id: wsId, wallet_visibility: 'owners' });
      expect((await visibility('--as', 'admin@acme.test')).stdout).toBe('Wallet visibility of acme: owners (only owners and admins may read the wallet)\n');
    });

    it('set to all gives a member read:wallet; back to owners takes it away', async () => {
      expect(await grantsOf('member')).not.toContain('read:wallet');

      const all = await visibility('all', '--as', 'owner@acme.test', '--json');
      expect(all.code).toBe(0);
      expect(all.json).toEqual({ workspace_id: wsId, wallet_visibility: 'all' });
      expect(await stored()).toBe('all');
      expect(await grantsOf('member')).toContain('read:wallet');
      expect((await visibility('--as', 'owner@acme.test')).stdout).toBe('Wallet visibility of acme: all (every member may read the wallet)\n');

      const owners = await visibility('owners', '--as', 'admin@acme.test');
      expect([owners.code, owners.stdout]).toEqual([0, 'Wallet visibility of acme: owners (only owners and admins may read the wallet)\n']);
      expect(await stored()).toBe('owners');
      expect(await grantsOf('member')).not.toContain('read:wallet');
      for (const role of ['owner', 'admin'] as const) expect(await grantsOf(role)).toContain('read:wallet');
    });

    it('takes the workspace by id as well as by name, and touches no other workspace', async () => {
      expect((await run('workspaces', 'wallet-visibility', wsId, 'all', '--as', 'owner@acme.test', '--json')).json).toEqual({ workspace_id: wsId, wallet_visibility: 'all' });
      const other = (await run('workspaces', 'create', 'globex', '--json')).json.id;
      expect(await walletVisibility(t.db.kysely, other)).toBe('owners');
      await visibility('owners', '--as', 'owner@acme.test');
    });

    it.each(['everyone', 'ALL', 'owner', ''])('exits 2 naming the argument and owners, all for %j, changing nothing', async (value) => {
      await visibility('all', '--as', 'owner@acme.test');
      const r = await visibility(value, '--as', 'owner@acme.test', '--json');
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toContain(`storelens: visibility: "${value}" is not one of owners, all`);
      expect(await stored()).toBe('all');
      expect(await grantsOf('member')).toContain('read:wallet');
      await visibility('owners', '--as', 'owner@acme.test');
    });

    it('refuses a member or a stranger (exit 2), setting or printing, and changes nothing', async () => {
      const r = await visibility('all', '--as', 'member@acme.test', '--json');
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(/member@acme\.test is a member of workspace "acme"; only an owner or admin can set the wallet visibility/);
      expect((await visibility('--as', 'member@acme.test')).stderr).toMatch(/only an owner or admin can see the wallet visibility/);
      const stranger = await visibility('all', '--as', 'stranger@acme.test');
      expect(stranger.code).toBe(2);
      expect(stranger.stderr).toMatch(/stranger@acme\.test is not a member of workspace "acme"/);
      expect(await stored()).toBe('owners');
    });

    it('names the workspace it cannot find', async () => {
      const r = await run('workspaces', 'wallet-visibility', 'nope', 'all', '--as', 'owner@acme.test', '--json');
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', expect.stringContaining('no workspace "nope"')]);
      expect(await stored()).toBe('owners');
    });

    it('requires --as', async () => {
      const r = await visibility('all');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("required option '--as <email>' not specified");
      expect(await stored()).toBe('owners');
    });
  });
}
