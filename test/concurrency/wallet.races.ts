/**
 * The wallet under concurrent billable requests split over two api processes: the balance and
 * the monthly cap let through exactly what they cover, and the ledger newest first always
 * chains (each balance_after = the next older one's + its amount, the newest = the balance).
 */
import { describe, expect, it } from 'vitest';
import { setRules } from '../../src/wallet/store.js';
import { call, freshIdem } from '../helpers/api.js';
import { burst, expectConsistentLedger, type Fleet, seedContact, seedWorkspace, statuses } from './fixture.js';

const ENROLLMENT_PRICE = 100;

/** A workspace with `contacts` contacts of store-a and a cadence, ready to enroll them all at once. */
async function enrollable(f: Fleet, contacts: number, funds: number) {
  const seeded = await seedWorkspace(f.db, ['write:outreach', 'read:wallet'], { keys: contacts, funds, accounts: ['store-a'] });
  const ids = await Promise.all(Array.from({ length: contacts }, () => seedContact(f.db, seeded.ws.id, 'store-a')));
  const cadence = await call(f.procs.base(0), 'POST', '/outreach/cadences', { key: seeded.keys[0], idem: freshIdem(), body: { name: 'intro', steps: [{ day: 0, name: 'intro email' }] } });
  expect(cadence.status).toBe(201);
  const enrollAll = () => burst(f, contacts, (i) => ({ method: 'POST', path: '/outreach/enrollments', key: seeded.keys[i]!, body: { store_id: 'store-a', contact_id: ids[i], cadence_id: cadence.body.id } }));
  return { ...seeded, enrollAll };
}

export function walletRaces(fleet: () => Fleet): void {
  describe('the wallet', () => {
    it('writes the ledger in the order of the balance: newest first each balance_after is the next older one’s plus its amount', async () => {
      const f = fleet();
      const { ws, keys, enrollAll } = await enrollable(f, 20, 100_000);
      expect(statuses(await enrollAll())).toEqual({ 201: 20 });
      const entries = await expectConsistentLedger(f.db, ws.id);
      expect(entries).toHaveLength(21);
      const usage = await call(f.procs.base(1), 'GET', '/wallet/usage?limit=100', { key: keys[0] });
      expect(usage.body.data.map((e: { balance_after: number }) => e.balance_after)).toEqual(entries.map((e) => e.balance_after));
      const wallet = await call(f.procs.base(0), 'GET', '/wallet', { key: keys[0] });
      expect(wallet.body.balance).toBe(100_000 - 20 * ENROLLMENT_PRICE);
      expect(usage.body.data[0].balance_after).toBe(wallet.body.balance);
    });

    it('lets through exactly the charges the balance covers, and never takes it below zero', async () => {
      const f = fleet();
      const { ws, enrollAll } = await enrollable(f, 20, 5 * ENROLLMENT_PRICE);
      const rs = await enrollAll();
      expect(statuses(rs)).toEqual({ 201: 5, 409: 15 });
      for (const r of rs.filter((x) => x.status === 409)) expect(r.body.type).toBe('https://storelens.dev/problems/insufficient-funds');
      const entries = await expectConsistentLedger(f.db, ws.id);
      expect(entries.filter((e) => e.operation_id === 'enroll_outreach')).toHaveLength(5);
      expect(entries[0]!.balance_after).toBe(0);
      expect(Math.min(...entries.map((e) => e.balance_after))).toBe(0);
    });

    it('lets through exactly the charges the monthly cap covers', async () => {
      const f = fleet();
      const { ws, enrollAll } = await enrollable(f, 20, 100_000);
      await f.db.write((trx) => setRules(trx, ws.id, { monthly_cap: 3 * ENROLLMENT_PRICE }, 'member:owner@example.com', new Date()));
      const rs = await enrollAll();
      expect(statuses(rs)).toEqual({ 201: 3, 409: 17 });
      for (const r of rs.filter((x) => x.status === 409)) expect(r.body.type).toBe('https://storelens.dev/problems/spend-cap-reached');
      const entries = await expectConsistentLedger(f.db, ws.id);
      expect(entries.filter((e) => e.operation_id === 'enroll_outreach')).toHaveLength(3);
    });
  });
}
