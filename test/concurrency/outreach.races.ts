/**
 * Outreach under concurrent requests split over two api processes: one running enrollment per
 * contact and cadence, charged once; an enrollment stopped once.
 */
import { describe, expect, it } from 'vitest';
import { call, freshIdem } from '../helpers/api.js';
import { burst, expectConsistentLedger, type Fleet, seedContact, seedWorkspace, statuses } from './fixture.js';

export function outreachRaces(fleet: () => Fleet): void {
  describe('outreach enrollments', () => {
    it('enrolls a contact in a cadence once: one 201, the rest 409, one charge', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['write:outreach', 'read:wallet'], { keys: 20, funds: 100_000, accounts: ['store-a'] });
      const contact = await seedContact(f.db, ws.id, 'store-a');
      const cadence = await call(f.procs.base(0), 'POST', '/outreach/cadences', { key: keys[0], idem: freshIdem(), body: { name: 'intro', steps: [{ day: 0, name: 'intro email' }, { day: 3, name: 'follow-up' }] } });
      expect(cadence.status).toBe(201);
      const rs = await burst(f, 20, (i) => ({ method: 'POST', path: '/outreach/enrollments', key: keys[i]!, body: { store_id: 'store-a', contact_id: contact, cadence_id: cadence.body.id } }));
      expect(statuses(rs)).toEqual({ 201: 1, 409: 19 });
      for (const r of rs.filter((x) => x.status === 409)) expect(r.body.type).toBe('https://storelens.dev/problems/conflict');
      const enrollments = await f.db.kysely.selectFrom('outreach_enrollments').select(['id', 'status']).where('workspace_id', '=', ws.id).execute();
      expect(enrollments).toHaveLength(1);
      const debits = await f.db.kysely.selectFrom('ledger_entries').select(['amount']).where('workspace_id', '=', ws.id).where('operation_id', '=', 'enroll_outreach').execute();
      expect(debits).toHaveLength(1);
      await expectConsistentLedger(f.db, ws.id);
    });

    it('stops an enrollment once: one 200, the rest 409', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['write:outreach'], { keys: 10, funds: 1_000, accounts: ['store-a'] });
      const contact = await seedContact(f.db, ws.id, 'store-a');
      const cadence = await call(f.procs.base(0), 'POST', '/outreach/cadences', { key: keys[0], idem: freshIdem(), body: { name: 'intro', steps: [{ day: 0, name: 'intro email' }, { day: 30, name: 'follow-up' }] } });
      const e = await call(f.procs.base(1), 'POST', '/outreach/enrollments', { key: keys[0], idem: freshIdem(), body: { store_id: 'store-a', contact_id: contact, cadence_id: cadence.body.id } });
      expect(e.status).toBe(201);
      const rs = await burst(f, 10, (i) => ({ method: 'POST', path: `/outreach/enrollments/${e.body.id}/stop`, key: keys[i]! }));
      expect(statuses(rs), JSON.stringify(rs[0]!.body)).toEqual({ 200: 1, 409: 9 });
      for (const r of rs.filter((x) => x.status === 409)) expect(r.body.detail).toMatch(/already stopped/);
      const row = await f.db.kysely.selectFrom('outreach_enrollments').select(['status', 'stop_reason']).where('id', '=', e.body.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('stopped');
      expect(row.stop_reason).toMatch(/^stopped by key:/);
    });

    it('enrolls a contact again once its enrollment stopped, once: one 201 and one charge more', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['write:outreach'], { keys: 10, funds: 1_000, accounts: ['store-a'] });
      const contact = await seedContact(f.db, ws.id, 'store-a');
      const cadence = await call(f.procs.base(0), 'POST', '/outreach/cadences', { key: keys[0], idem: freshIdem(), body: { name: 'intro', steps: [{ day: 0, name: 'intro email' }, { day: 30, name: 'follow-up' }] } });
      const body = { store_id: 'store-a', contact_id: contact, cadence_id: cadence.body.id };
      const first = await call(f.procs.base(0), 'POST', '/outreach/enrollments', { key: keys[0], idem: freshIdem(), body });
      expect((await call(f.procs.base(1), 'POST', `/outreach/enrollments/${first.body.id}/stop`, { key: keys[0], idem: freshIdem() })).status).toBe(200);
      const rs = await burst(f, 10, (i) => ({ method: 'POST', path: '/outreach/enrollments', key: keys[i]!, body }));
      expect(statuses(rs)).toEqual({ 201: 1, 409: 9 });
      const running = await f.db.kysely.selectFrom('outreach_enrollments').select('id').where('workspace_id', '=', ws.id).where('status', 'in', ['active', 'awaiting_approval']).execute();
      expect(running).toHaveLength(1);
      const entries = await expectConsistentLedger(f.db, ws.id);
      expect(entries.filter((x) => x.operation_id === 'enroll_outreach')).toHaveLength(2);
    });
  });
}
