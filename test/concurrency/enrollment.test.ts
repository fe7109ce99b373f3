/**
 * An enrollment racing another process's change of what it checks, the overlap forced the same
 * way every time. Pilot access withdrawn (`storelens workspaces pilot off`) stops every running
 * enrollment in its transaction, so an enrollment admitted while the workspace still had pilot
 * access either sees the withdrawal and starts nothing, or is stopped by it. An account set to
 * do_not_contact while an enrollment is asked for is never enrolled.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/compose/database.js';
import { buildApiApp } from '../../src/compose/api-app.js';
import { insertCadence } from '../../src/outreach/store.js';
import { credit } from '../../src/wallet/billing.js';
import { setPilotAccess } from '../../src/workspaces/store.js';
import { setAccountStatus } from '../../src/accounts/store.js';
import { seedAccounts } from '../helpers/accounts.js';
import { apiKey, call, type CallResult, freshIdem, workspace } from '../helpers/api.js';
import { adminCli } from '../helpers/cli.js';
import { beforeFirstCommit, beforeFirstWrite, dialects, lockWaiter, raceAtCommit, useTwoHandles } from '../helpers/db.js';
import { seedContact } from './fixture.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`an enrollment raced on two handles of one ${d.label} database`, () => {
    const handles = useTwoHandles(d.name);
    const run = adminCli(() => handles().t);

    /** A pilot workspace with funds, an account, a contact of it, a cadence and a key; `enroll` asks for the enrollment through an api over `db`. */
    async function enrollable() {
      const { t } = handles();
      const ws = await workspace(t.db);
      await setPilotAccess(t.db.kysely, ws.id, true);
      await t.db.write((trx) => credit(trx, ws.id, 10_000, 'outreach', 'member:owner@example.com', freshIdem(), new Date()));
      await seedAccounts(t.db, ws.id, [{ store_id: 'store-a', score: 0.9 }]);
      const contact = await seedContact(t.db, ws.id, 'store-a');
      const cadence = await t.db.write((trx) => insertCadence(trx, ws.id, 'intro', [{ day: 0, name: 'intro email' }], new Date()));
      const key = await apiKey(t.db, ws.id, ['write:outreach']);
      const enroll = async (db: Db): Promise<CallResult> => {
        const app = await buildApiApp({ db, validateResponses: true });
        try {
          await app.listen({ port: 0, host: '127.0.0.1' });
          const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`;
          return await call(base, 'POST', '/outreach/enrollments', { key, idem: freshIdem(), body: { store_id: 'store-a', contact_id: contact, cadence_id: cadence.id } });
        } finally {
          await app.close();
        }
      };
      const withdraw = () => run('workspaces', 'pilot', 'off', '--workspace', ws.id, '--json');
      const running = () => t.db.kysely.selectFrom('outreach_enrollments').select('id').where('workspace_id', '=', ws.id).where('status', 'in', ['active', 'awaiting_approval']).execute();
      return { t, ws, enroll, withdraw, running };
    }

    it('refuses an enrollment admitted just before pilot access was withdrawn: 404 pilot-required, nothing charged, nothing left running', async () => {
      const { t, ws, enroll, withdraw, running } = await enrollable();
      const racing = beforeFirstWrite(t.db, async () => expect((await withdraw()).code).toBe(0));
      const r = await enroll(racing.db);
      expect(racing.ran()).toBe(true);
      expect(r.status, JSON.stringify(r.body)).toBe(404);
      expect(r.body.type).toBe('https://storelens.dev/problems/pilot-required');
      expect(await running()).toEqual([]);
      const debits = await t.db.kysely.selectFrom('ledger_entries').select('id').where('workspace_id', '=', ws.id).where('operation_id', '=', 'enroll_outreach').execute();
      expect(debits).toEqual([]);
    });

    // SQLite has one writer: a withdrawal cannot start while the enrollment's transaction is open.
    it.skipIf(d.name !== 'PostgreSQL')('stops an enrollment whose transaction is open when pilot access is withdrawn: the withdrawal waits for it, then stops it', async () => {
      const { t, enroll, withdraw, running } = await enrollable();
      let withdrawal: ReturnType<typeof withdraw> | undefined;
      const racing = beforeFirstCommit(t.db, async () => {
        withdrawal = withdraw();
        // Let go once the withdrawal waits for this transaction's locks (or ended without waiting).
        await Promise.race([lockWaiter(t.db.kysely), withdrawal]);
      });
      const r = await enroll(racing.db);
      expect(racing.ran()).toBe(true);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const off = await withdrawal!;
      expect(off.code, off.stderr).toBe(0);
      expect(off.json).toMatchObject({ pilot_access: false, stopped_enrollments: 1 });
      expect(await running()).toEqual([]);
      const row = await t.db.kysely.selectFrom('outreach_enrollments').select(['status', 'stop_reason']).where('id', '=', r.body.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'stopped', stop_reason: 'pilot access was withdrawn' });
    });

    it('enrolls no contact of an account whose do_not_contact decision is being committed: 422, nothing charged', async () => {
      const { t, ws, enroll, running } = await enrollable();
      const { other } = handles();
      const decide = (db: Db) => db.write((trx) => setAccountStatus(trx, ws.id, 'store-a', { status: 'do_not_contact', note: null, actor: 'key:test' }, new Date()));
      const [decided, r] = await raceAtCommit(t.db, decide, () => enroll(other));
      expect(decided.status).toBe('fulfilled');
      const answer = (r as PromiseFulfilledResult<CallResult>).value;
      expect(answer.status, JSON.stringify(answer.body)).toBe(422);
      expect(answer.body.type).toBe('https://storelens.dev/problems/unprocessable');
      expect(await running()).toEqual([]);
      const debits = await t.db.kysely.selectFrom('ledger_entries').select('id').where('workspace_id', '=', ws.id).where('operation_id', '=', 'enroll_outreach').execute();
      expect(debits).toEqual([]);
    });
  });
}
