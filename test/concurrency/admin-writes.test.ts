/**
 * The owner-or-admin CLI writes run by an admin whom another process is removing from the
 * workspace (over one PostgreSQL database): each command checks the member again inside its write,
 * under the workspace row's lock the removal holds, so it refuses and writes nothing, however the
 * admin was one still when it first read them. (`workspaces profile`: profile.test.ts; `keys create`:
 * member-lock.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../src/members/issue-key.js';
import { lockMember } from '../../src/members/owners.js';
import { removeMember, upsertMember } from '../../src/members/store.js';
import { getSender, setSender } from '../../src/outreach/store.js';
import { getApproval, insertApproval, readWallet, setRules } from '../../src/wallet/store.js';
import { setWalletVisibility, walletVisibility } from '../../src/workspaces/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { spawnStorelens } from '../helpers/api-processes.js';
import { dialects, freshDb, type TestDb, whileHeld } from '../helpers/db.js';
import { seedWorkspace } from './fixture.js';

const pg = dialects.find((d) => d.name === 'PostgreSQL')!;

interface Command {
  name: string;
  /** What the workspace holds before the command, set up; resolves to the id of what it made (an approval, a key), if anything. */
  seed(t: TestDb, ws: Workspace): Promise<string | void>;
  args(ws: Workspace, made: string | void): string[];
  /** What the command would change, as stored now. */
  state(t: TestDb, ws: Workspace, made: string | void): Promise<unknown>;
}

const pendingApproval = async (t: TestDb, ws: Workspace): Promise<string> =>
  (
    await t.db.write((trx) =>
      insertApproval(
        trx,
        { workspace_id: ws.id, unit: 'growth_report', quantity: 1, amount: 100, currency: 'USD', price_version: 1, operation_id: 'request_growth_report', idempotency_key: `idem-${ws.id}`, actor: 'key:k', resource_kind: null, resource_id: null, requested_at: new Date().toISOString() },
        new Date(),
      ),
    )
  ).id;

const approvalState = async (t: TestDb, _ws: Workspace, id: string | void) => {
  const a = await getApproval(t.db.kysely, id!);
  return { status: a?.status, entry_id: a?.entry_id };
};
const walletState = async (t: TestDb, ws: Workspace) => {
  const w = await readWallet(t.db.kysely, ws.id, new Date());
  return { balance: w.balance, auto_approve_below: w.auto_approve_below, monthly_cap: w.monthly_cap };
};

const COMMANDS: Command[] = [
  { name: 'wallet credit', seed: async () => {}, args: (ws) => ['wallet', 'credit', ws.name, '5', '--reason', 'late'], state: walletState },
  {
    name: 'wallet rules',
    seed: async (t, ws) => void (await t.db.write((trx) => setRules(trx, ws.id, { monthly_cap: 1000 }, 'member:owner@example.com', new Date()))),
    args: (ws) => ['wallet', 'rules', ws.name, '--monthly-cap', 'off', '--auto-approve-below', '2'],
    state: walletState,
  },
  { name: 'wallet approve', seed: pendingApproval, args: (_ws, id) => ['wallet', 'approve', id!], state: approvalState },
  { name: 'wallet deny', seed: pendingApproval, args: (_ws, id) => ['wallet', 'deny', id!], state: approvalState },
  {
    name: 'workspaces wallet-visibility',
    seed: async (t, ws) => void (await t.db.write((trx) => setWalletVisibility(trx, ws.id, 'owners'))),
    args: (ws) => ['workspaces', 'wallet-visibility', ws.name, 'all'],
    state: (t, ws) => walletVisibility(t.db.kysely, ws.id),
  },
  {
    name: 'outreach sender --clear',
    seed: async (t, ws) => void (await t.db.write((trx) => setSender(trx, ws.id, 'https://sender.example.com/hook', 'sealed', new Date()))),
    args: (ws) => ['outreach', 'sender', ws.name, '--clear'],
    state: async (t, ws) => (await getSender(t.db.kysely, ws.id))?.url ?? null,
  },
  {
    // An address, not a name: the delivery guard it runs first resolves nothing.
    name: 'outreach sender --url',
    seed: async (t, ws) => void (await t.db.write((trx) => setSender(trx, ws.id, 'https://sender.example.com/hook', 'sealed', new Date()))),
    args: (ws) => ['outreach', 'sender', ws.name, '--url', 'https://93.184.216.34/hook'],
    state: async (t, ws) => await getSender(t.db.kysely, ws.id),
  },
  {
    name: 'keys revoke',
    seed: async (t, ws) => (await issueApiKey(t.db, { workspaceId: ws.id, name: 'integration', scopes: ['read:accounts'], createdBy: 'owner@example.com', now: new Date() })).id,
    args: (ws, id) => ['keys', 'revoke', id!, '--workspace', ws.name],
    state: async (t, _ws, id) => (await t.db.kysely.selectFrom('api_keys').select('revoked_at').where('id', '=', id!).executeTakeFirst())?.revoked_at,
  },
];

describe.skipIf(pg.skip)(`owner-or-admin CLI writes by an admin being removed by another process, over one ${pg.label} database`, () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb('PostgreSQL');
  }, 60_000);
  afterAll(async () => t?.cleanup());

  it.each(COMMANDS)('$name changes nothing for an admin whose removal holds the workspace', async (c) => {
    const { ws } = await seedWorkspace(t.db, [], { funds: 10_000 });
    await upsertMember(t.db.kysely, ws.id, 'ari@example.com', 'admin', new Date());
    const made = await c.seed(t, ws);
    const before = await c.state(t, ws, made);
    // `members remove` in another process, its transaction open: to a read, the admin is one still.
    const ran = await whileHeld(
      t.db,
      async (trx) => {
        await lockMember(trx, ws.id, 'ari@example.com');
        await removeMember(trx, ws.id, 'ari@example.com');
      },
      async () => {
        const p = spawnStorelens(t, [...c.args(ws, made), '--as', 'ari@example.com']);
        return { code: (await p.exited).code, stdout: p.stdout(), stderr: p.stderr() };
      },
    );
    expect(ran).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('ari@example.com is not a member of workspace') });
    expect(await c.state(t, ws, made)).toEqual(before);
  }, 60_000);
});
