/**
 * Contacts under concurrent requests split over two api processes: one contact per email in a
 * workspace, on add and on a change of email.
 */
import { describe, expect, it } from 'vitest';
import { burst, type Fleet, seedContact, seedWorkspace, statuses } from './fixture.js';

const PROBLEM = 'https://storelens.dev/problems/';

export function contactRaces(fleet: () => Fleet): void {
  describe('contacts', () => {
    it('adds one contact when ten adds of one email race: one 201, nine 409 naming it', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['read:accounts', 'write:contacts'], { keys: 10, accounts: ['store-a'] });
      const rs = await burst(f, 10, (i) => ({ method: 'POST', path: '/contacts', key: keys[i]!, body: { store_id: 'store-a', email: i % 2 ? 'ana@ACME.example' : 'ana@acme.example' } }));
      expect(statuses(rs)).toEqual({ 201: 1, 409: 9 });
      const id = rs.find((r) => r.status === 201)!.body.id;
      for (const r of rs.filter((x) => x.status === 409)) {
        expect(r.body.type).toBe(`${PROBLEM}conflict`);
        expect(r.body.existing_contact_id).toBe(id);
      }
      const rows = await f.db.kysely.selectFrom('contacts').select('id').where('workspace_id', '=', ws.id).execute();
      expect(rows).toEqual([{ id }]);
    });

    it('gives an email to one of six contacts whose changes to it race: one 200, five 409 naming it', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['read:accounts', 'write:contacts'], { keys: 6, accounts: ['store-a'] });
      const contacts = await Promise.all(Array.from({ length: 6 }, () => seedContact(f.db, ws.id, 'store-a')));
      const rs = await burst(f, 6, (i) => ({ method: 'PATCH', path: `/contacts/${contacts[i]}`, key: keys[i]!, body: { email: 'bo@acme.example' } }));
      expect(statuses(rs)).toEqual({ 200: 1, 409: 5 });
      const winner = rs.find((r) => r.status === 200)!.body.id;
      for (const r of rs.filter((x) => x.status === 409)) expect(r.body.existing_contact_id).toBe(winner);
      const holders = await f.db.kysely.selectFrom('contacts').select('id').where('workspace_id', '=', ws.id).where('email', '=', 'bo@acme.example').execute();
      expect(holders).toEqual([{ id: winner }]);
    });

    it('dates ten racing changes of one contact in the order they commit: the name kept is the last dated', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['read:accounts', 'write:contacts'], { keys: 10, accounts: ['store-a'] });
      const contact = await seedContact(f.db, ws.id, 'store-a');
      const rs = await burst(f, 10, (i) => ({ method: 'PATCH', path: `/contacts/${contact}`, key: keys[i]!, body: { name: `Name ${i}` } }));
      expect(statuses(rs)).toEqual({ 200: 10 });
      const dated = rs.map((r) => ({ name: r.body.name as string, at: Date.parse(r.body.updated_at) })).sort((a, b) => a.at - b.at);
      // Each change is dated after the one it replaced: ten distinct times, the last one's name kept.
      expect(new Set(dated.map((d) => d.at)).size).toBe(10);
      const row = await f.db.kysely.selectFrom('contacts').select(['name', 'updated_at']).where('id', '=', contact).executeTakeFirstOrThrow();
      expect({ name: row.name, at: Date.parse(row.updated_at) }).toEqual(dated.at(-1));
    });
  });
}
