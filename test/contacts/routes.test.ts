/**
 * The contact operations over a real socket: add, get, update (an empty one refused, one that
 * changes no value changing nothing) and find (every filter, the cursor), one contact per
 * normalised email (409 naming the existing one, also when racing), discovery from the data
 * team's contact source, contact.created in the outbox with the change, what another workspace
 * can see, and which scope each operation needs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceStoreContacts } from '../../src/contacts/store.js';
import { listEvents } from '../../src/webhooks/outbox.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { setProfile } from '../../src/accounts/profile-store.js';
import { seedAccounts, seedRun } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';
import { WORKING } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';
const LIMITS = { read: 100_000, write: 100_000, report: 100_000 };

for (const d of dialects) {
  describe.skipIf(d.skip)(`contact operations on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;
    let other: Workspace;
    let read: string;
    let write: string;
    let writeOnly: string;
    let otherWrite: string;

    const add = (body: Record<string, unknown>, key = write) => call(h.base, 'POST', '/contacts', { key, idem: freshIdem(), body });
    const patch = (id: string, body: Record<string, unknown>, key = write) => call(h.base, 'PATCH', `/contacts/${encodeURIComponent(id)}`, { key, idem: freshIdem(), body });
    const find = (query: string, key = read) => call(h.base, 'GET', `/contacts${query}`, { key });
    const events = async (w = ws) => (await listEvents(h.db.kysely, w.id)).filter((e) => e.type.startsWith('contact.'));
    const countContacts = async () => Number((await h.db.kysely.selectFrom('contacts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    beforeAll(async () => {
      h = await startApi(d.name, { operations: WORKING, rateLimits: LIMITS });
      ws = await workspace(h.db);
      other = await workspace(h.db);
      read = await apiKey(h.db, ws.id, ['read:accounts']);
      write = await apiKey(h.db, ws.id, ['read:accounts', 'write:contacts']);
      writeOnly = await apiKey(h.db, ws.id, ['write:contacts']);
      otherWrite = await apiKey(h.db, other.id, ['read:accounts', 'write:contacts']);
      await seedAccounts(h.db, ws.id, [
        { store_id: 'north', score: 0.9 },
        { store_id: 'south', score: 0.8 },
        { store_id: '=west, "quoted"', score: 0.7 },
      ]);
      await seedAccounts(h.db, other.id, [{ store_id: 'east', score: 0.6 }]);
      await h.db.write((trx) =>
        replaceStoreContacts(
          trx,
          'a'.repeat(64),
          [
            { store_id: 'north', email: 'buyer@north.example', name: 'Bo Buyer', role: 'Buyer', source: 'trade-fair 2025' },
            { store_id: 'north', email: 'ceo@north.example', name: 'Cy Chief', role: 'CEO', source: 'company site' },
            { store_id: 'north', email: 'ops@north.example', name: null, role: null, source: null },
            { store_id: 'east', email: 'hidden@east.example', name: 'Eve', role: 'CEO', source: 'company site' },
          ],
          new Date(),
        ),
      );
    });

    afterAll(async () => {
      await h?.close();
    });

    describe('add_contact and get_contact', () => {
      it('adds a contact with its email normalised, answers it by id, and lists it in the account detail', async () => {
        const r = await add({ store_id: 'south', email: '  Sam.Lee@South.EXAMPLE ', name: 'Sam Lee', role: 'Founder' });
        expect(r.status).toBe(201);
        expect(r.body).toMatchObject({ object: 'contact', store_id: 'south', email: 'Sam.Lee@south.example', name: 'Sam Lee', role: 'Founder', source: 'manual', source_detail: null });
        expect(r.body.id).toMatch(/^con_/);
        expect(r.body.created_by).toMatch(/^key:/);
        const got = await call(h.base, 'GET', `/contacts/${r.body.id}`, { key: read });
        expect(got.status).toBe(200);
        expect(got.body).toEqual(r.body);
        const account = await call(h.base, 'GET', '/accounts/south', { key: read });
        expect(account.body.contacts).toEqual([r.body]);
      });

      it('writes contact.created with the contact to the outbox, in the transaction that adds it', async () => {
        const before = (await events()).length;
        const r = await add({ store_id: 'south', email: 'pat@south.example', name: 'Pat' });
        expect(r.status).toBe(201);
        const after = await events();
        expect(after.length).toBe(before + 1);
        expect(after[after.length - 1]).toMatchObject({ type: 'contact.created', data: { contact: r.body }, created_at: r.body.created_at });
        // A refused add (the same email again) rolls its whole transaction back: no event.
        expect((await add({ store_id: 'south', email: 'pat@SOUTH.example' })).status).toBe(409);
        expect((await events()).length).toBe(before + 1);
      });

      it('answers 409 naming the existing contact for an email differing only in whitespace or the case of its domain', async () => {
        const first = await add({ store_id: 'north', email: 'dana@Dup.Example' });
        expect(first.status).toBe(201);
        for (const email of ['dana@dup.example', ' dana@DUP.EXAMPLE\t']) {
          const again = await add({ store_id: 'south', email });
          expect(again.status).toBe(409);
          expect(again.contentType).toContain('application/problem+json');
          expect(again.body.type).toBe(`${PROBLEM}conflict`);
          expect(again.body.detail).toContain(first.body.id);
          expect(again.body.existing_contact_id).toBe(first.body.id);
        }
        // The local part keeps its case: another mailbox, another contact.
        expect((await add({ store_id: 'north', email: 'Dana@dup.example' })).status).toBe(201);
      });

      it('lets exactly one of several concurrent adds of one email win; the others answer 409 naming it', async () => {
        const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => add({ store_id: 'north', email: `race@Race.example`, name: `racer ${i}` })));
        const won = rs.filter((r) => r.status === 201);
        expect(won.length).toBe(1);
        for (const r of rs.filter((x) => x.status !== 201)) {
          expect(r.status).toBe(409);
          expect(r.body.existing_contact_id).toBe(won[0].body.id);
        }
        expect((await find('?email=race@race.example')).body.data.map((c: { id: string }) => c.id)).toEqual([won[0].body.id]);
      });

      it('answers 404 for a store the workspace cannot see and 400 naming a bad field', async () => {
        const hidden = await add({ store_id: 'east', email: 'x@east.example' });
        expect(hidden.status).toBe(404);
        expect(hidden.body.type).toBe(`${PROBLEM}not-found`);
        const bad = await add({ store_id: 'north', email: 'not an email' });
        expect(bad.status).toBe(400);
        expect(bad.body.detail).toContain('email');
        expect((await add({ store_id: 'north', email: 'a@b.example', phone: '1' })).status).toBe(400);
      });

      it('trims a name and role as the contact source does, and refuses one of only blanks on add and update', async () => {
        // A name sent " Ann Lee " was kept with its blanks, and "   " kept as a name, where the
        // contact source trims both (an empty one is no name). The blanks are those the panel
        // trims (core/text.ts; test/doors/text.test.ts has the whole rule at every door).
        const c = await add({ store_id: 'north', email: 'trim@north.example', name: '  Ann Lee ', role: '\u00a0Buyer\u3000' });
        expect(c.status).toBe(201);
        expect(c.body).toMatchObject({ name: 'Ann Lee', role: 'Buyer' });
        const n = await countContacts();
        for (const body of [{ name: '   ' }, { role: ' ' }]) {
          const r = await add({ store_id: 'north', email: 'blank@north.example', ...body });
          expect(r.status).toBe(400);
          expect(r.body.detail).toContain(Object.keys(body)[0]);
          expect((await patch(c.body.id, body)).status).toBe(400);
        }
        expect(await countContacts()).toBe(n);
        expect((await call(h.base, 'GET', `/contacts/${c.body.id}`, { key: read })).body).toMatchObject({ name: 'Ann Lee', role: 'Buyer' });
      });

      it('replays an add with the same Idempotency-Key without a second contact or event', async () => {
        const idem = freshIdem();
        const body = { store_id: 'north', email: 'replay@north.example' };
        const first = await call(h.base, 'POST', '/contacts', { key: write, idem, body });
        const n = (await events()).length;
        const again = await call(h.base, 'POST', '/contacts', { key: write, idem, body });
        expect([first.status, again.status]).toEqual([201, 201]);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.body).toEqual(first.body);
        expect((await events()).length).toBe(n);
      });
    });

    describe('update_contact', () => {
      it('changes the given fields, clears a field given null, normalises a new email, and emits nothing', async () => {
        const c = (await add({ store_id: 'north', email: 'upd@north.example', name: 'Old', role: 'Buyer' })).body;
        const n = (await events()).length;
        h.clock.advance(1000);
        const r = await patch(c.id, { name: 'New', role: null, email: ' Upd2@North.Example ' });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ id: c.id, name: 'New', role: null, email: 'Upd2@north.example', store_id: 'north', created_at: c.created_at });
        expect(r.body.updated_at > c.updated_at).toBe(true);
        expect((await call(h.base, 'GET', `/contacts/${c.id}`, { key: read })).body).toEqual(r.body);
        expect((await events()).length).toBe(n);
        // Its own email again (any case of the domain) is no conflict.
        expect((await patch(c.id, { email: 'Upd2@NORTH.example' })).status).toBe(200);
      });

      it("answers 409 naming the holder of a taken email, and 404 for an unknown or another workspace's contact", async () => {
        const a = (await add({ store_id: 'north', email: 'holder@north.example' })).body;
        const b = (await add({ store_id: 'north', email: 'mover@north.example' })).body;
        const taken = await patch(b.id, { email: 'HOLDER@north.EXAMPLE'.replace('HOLDER', 'holder') });
        expect(taken.status).toBe(409);
        expect(taken.body.detail).toContain(a.id);
        expect((await call(h.base, 'GET', `/contacts/${b.id}`, { key: read })).body.email).toBe('mover@north.example');
        expect((await patch('con_nope', { name: 'x' })).status).toBe(404);
        const theirs = await patch(b.id, { name: 'stolen' }, otherWrite);
        expect(theirs.status).toBe(404);
        expect((await call(h.base, 'GET', `/contacts/${b.id}`, { key: read })).body.name).toBeNull();
      });

      it('answers 400 naming the missing field for an empty body, and leaves the contact as it was', async () => {
        const c = (await add({ store_id: 'north', email: 'empty@north.example', name: 'Em' })).body;
        h.clock.advance(1000);
        const r = await patch(c.id, {});
        expect(r.status).toBe(400);
        expect(r.contentType).toContain('application/problem+json');
        expect(r.body.type).toBe(`${PROBLEM}invalid-body`);
        expect(r.body.detail).toContain('at least one field');
        expect((await call(h.base, 'GET', `/contacts/${c.id}`, { key: read })).body).toEqual(c);
      });

      it('answers a change to the values the contact already has with the contact as it was: same updated_at, no event', async () => {
        const c = (await add({ store_id: 'north', email: 'Same@north.example', name: 'Sam' })).body;
        const n = (await events()).length;
        for (const body of [
          { name: 'Sam' },
          { role: null },
          { email: 'Same@north.example' },
          // Normalised before comparing: the domain's case and surrounding spaces are no change.
          { email: ' Same@NORTH.Example ' },
          { name: 'Sam', email: 'Same@North.example', role: null },
        ]) {
          h.clock.advance(1000);
          const r = await patch(c.id, body);
          expect(r.status, JSON.stringify(body)).toBe(200);
          expect(r.body, JSON.stringify(body)).toEqual(c);
        }
        expect((await call(h.base, 'GET', `/contacts/${c.id}`, { key: read })).body).toEqual(c);
        expect((await events()).length).toBe(n);
      });

      it('moves updated_at when one of the given values differs, keeping the others, and still emits nothing', async () => {
        const c = (await add({ store_id: 'north', email: 'part@north.example', name: 'Pat', role: 'Buyer' })).body;
        const n = (await events()).length;
        h.clock.advance(1000);
        const r = await patch(c.id, { name: 'Pat', role: 'CEO' });
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ ...c, role: 'CEO', updated_at: h.clock.now().toISOString() });
        expect(r.body.updated_at > c.updated_at).toBe(true);
        // Back to unchanged: the next same-valued change keeps this updated_at.
        h.clock.advance(1000);
        expect((await patch(c.id, { role: 'CEO' })).body).toEqual(r.body);
        expect((await events()).length).toBe(n);
      });
    });

    describe('find_contacts', () => {
      let ws2: Workspace;
      let key2: string;
      const added: Record<string, string> = {};
      beforeAll(async () => {
        // A workspace of its own, so the lists are exactly these.
        ws2 = await workspace(h.db);
        key2 = await apiKey(h.db, ws2.id, ['read:accounts', 'write:contacts']);
        await seedAccounts(h.db, ws2.id, [{ store_id: 'north', score: 0.9 }, { store_id: 'south', score: 0.5 }, { store_id: 'quiet', score: 0.4 }]);
        const people: [string, string, string, string | undefined][] = [
          ['ann', 'north', 'Ann Archer', 'CEO'],
          ['ben', 'north', 'Ben 100%_off', 'Buyer'],
          ['cat', 'south', 'Cat Cole', undefined],
          ['dan', 'south', 'Dan Annson', 'Marketing'],
          ['eve', 'north', 'Eve', 'Founder'],
        ];
        for (const [who, store, name, role] of people) {
          h.clock.advance(10);
          const r = await add({ store_id: store, email: `${who}@Mail.example`, name, ...(role ? { role } : {}) }, key2);
          expect(r.status).toBe(201);
          added[who] = r.body.id;
        }
      });
      const names = (r: { body: { data: { email: string }[] } }) => r.body.data.map((c) => c.email.split('@')[0]);

      it('lists every contact oldest first, and filters by email, name, store and free text', async () => {
        expect(names(await find('', key2))).toEqual(['ann', 'ben', 'cat', 'dan', 'eve']);
        expect(names(await find('?email=%20dan@MAIL.example', key2))).toEqual(['dan']);
        expect(names(await find('?name=ANN', key2))).toEqual(['ann', 'dan']);
        expect(names(await find('?store_id=south', key2))).toEqual(['cat', 'dan']);
        expect(names(await find('?store_id=quiet', key2))).toEqual([]);
        expect(names(await find('?q=founder', key2))).toEqual(['eve']);
        expect(names(await find('?q=sout', key2))).toEqual(['cat', 'dan']);
        expect(names(await find(`?q=${encodeURIComponent('100%_')}`, key2))).toEqual(['ben']);
        expect(names(await find(`?q=${encodeURIComponent('%')}`, key2))).toEqual(['ben']);
        expect(names(await find('?q=ann&store_id=north', key2))).toEqual(['ann']);
      });

      it('answers 400 naming email for an email filter that is no address, which would find nothing', async () => {
        for (const email of ['dan', 'dan at mail.example', 'dan@']) {
          const r = await find(`?email=${encodeURIComponent(email)}`, key2);
          expect(r.status, email).toBe(400);
          expect(r.body).toMatchObject({ type: PROBLEM + 'invalid-parameters', errors: [{ path: 'email', message: 'must be an email address' }] });
        }
      });

      it('finds a name or role in any case of letters past A–Z, typed as written or not', async () => {
        // On SQLite lower() lowered A–Z only: "ÉLODIE Dupont" was found by no search of her first
        // name, not even "ÉLODIE" as written, while PostgreSQL found her.
        const ws3 = await workspace(h.db);
        const key3 = await apiKey(h.db, ws3.id, ['read:accounts', 'write:contacts']);
        await seedAccounts(h.db, ws3.id, [{ store_id: 'alpen', score: 0.5 }]);
        expect((await add({ store_id: 'alpen', email: 'elodie@alpen.example', name: 'ÉLODIE Dupont', role: 'GESCHÄFTSFÜHRERIN' }, key3)).status).toBe(201);
        for (const query of ['?name=ÉLODIE', '?name=élodie', '?q=geschäftsführerin', '?q=Geschäfts']) {
          expect(names(await find(encodeURI(query), key3)), query).toEqual(['elodie']);
        }
      });

      it('finds a name or role typed in decomposed form (e + U+0301), as names are kept composed', async () => {
        const ws3 = await workspace(h.db);
        const key3 = await apiKey(h.db, ws3.id, ['read:accounts', 'write:contacts']);
        await seedAccounts(h.db, ws3.id, [{ store_id: 'alpen', score: 0.5 }]);
        expect((await add({ store_id: 'alpen', email: 'elodie@alpen.example', name: 'Élodie Dupont', role: 'Gérante' }, key3)).status).toBe(201);
        for (const [param, value] of [['name', 'E\u0301lodie'], ['name', 'e\u0301lodie'], ['q', 'ge\u0301rante'], ['q', ' e\u0301lodie ']]) {
          expect(names(await find(`?${param}=${encodeURIComponent(value!)}`, key3)), `${param}=${value}`).toEqual(['elodie']);
        }
        for (const query of ['?name=%20', '?q=%20%20']) {
          const r = await find(query, key3);
          expect([r.status, r.body.errors]).toEqual([400, [{ path: query.slice(1, query.indexOf('=')), message: 'must not be empty or only spaces' }]]);
        }
      });

      it('pages with next_cursor, and refuses a cursor for other filters or a tampered one', async () => {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const r = await find(`?store_id=north&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key2);
          expect(r.status).toBe(200);
          seen.push(...names(r));
          cursor = r.body.next_cursor;
          pages++;
        } while (cursor);
        expect(seen).toEqual(['ann', 'ben', 'eve']);
        expect(pages).toBe(2);
        const first = await find('?limit=1', key2);
        const c = encodeURIComponent(first.body.next_cursor);
        expect(names(await find(`?limit=1&cursor=${c}`, key2))).toEqual(['ben']);
        expect((await find(`?limit=1&store_id=south&cursor=${c}`, key2)).status).toBe(400);
        expect((await find(`?limit=1&cursor=${c}x`, key2)).status).toBe(400);
        // Another workspace's key cannot continue the walk.
        expect((await find(`?limit=1&cursor=${c}`, read)).status).toBe(400);
      });

      it("never lists another workspace's contacts; a store filter naming a store the workspace cannot see finds none, as list_deals answers", async () => {
        const mine = (await find('?limit=200', read)).body.data.map((c: { id: string }) => c.id);
        for (const id of Object.values(added)) expect(mine).not.toContain(id);
        expect((await find('?q=mail.example', read)).body.data).toEqual([]);
        // A filter narrows the workspace's own contacts: another workspace's store (with contacts
        // there) and a store nobody has answer alike, an empty page, as deals do.
        for (const store of ['east', 'nowhere']) {
          const contacts = await find(`?store_id=${store}`, read);
          const deals = await call(h.base, 'GET', `/deals?store_id=${store}`, { key: read });
          expect([contacts.status, contacts.body.data]).toEqual([200, []]);
          expect([deals.status, deals.body.data]).toEqual([200, []]);
        }
        expect((await find('?limit=0', read)).status).toBe(400);
      });

      it('finds the contacts (and deals) at a store the workspace no longer sees by its store filter, while the store itself answers 404', async () => {
        const ws3 = await workspace(h.db);
        const key3 = await apiKey(h.db, ws3.id, ['read:accounts', 'write:contacts', 'write:deals']);
        const stores = [{ store_id: 'lv-us', country: 'US' }, { store_id: 'lv-gb', country: 'GB' }];
        await seedRun(h.db, '2026-10', 'run-lv', stores, stores.map((st) => ({ store_id: st.store_id, type: 'app_installed' as const, subject: 'klaviyo' })));
        await refreshWorkspace(h.db, ws3.id, h.clock.now());
        const contact = await add({ store_id: 'lv-gb', email: 'gwen@lv.example' }, key3);
        expect(contact.status).toBe(201);
        const deal = await call(h.base, 'POST', '/deals', { key: key3, idem: freshIdem(), body: { store_id: 'lv-gb', title: 'Before the profile' } });
        expect(deal.status).toBe(201);
        // The profile leaves GB out: the store is no longer one of the workspace's accounts.
        await h.db.write((trx) => setProfile(trx, ws3.id, { countries: ['US'] }, h.clock.now()));
        await refreshWorkspace(h.db, ws3.id, h.clock.now());
        expect((await call(h.base, 'GET', '/accounts/lv-gb', { key: key3 })).status).toBe(404);
        expect((await add({ store_id: 'lv-gb', email: 'late@lv.example' }, key3)).status).toBe(404);
        const found = await find('?store_id=lv-gb', key3);
        expect([found.status, found.body.data.map((c: { id: string }) => c.id)]).toEqual([200, [contact.body.id]]);
        const deals = await call(h.base, 'GET', '/deals?store_id=lv-gb', { key: key3 });
        expect([deals.status, deals.body.data.map((x: { id: string }) => x.id)]).toEqual([200, [deal.body.id]]);
      });

      it('answers 400 invalid-parameters naming `email` for an email filter that is no email address, as list_deals does for owner_email', async () => {
        for (const bad of ['notanemail', 'ann@', '@north.example', ' ', `${'a'.repeat(320)}@x.example`]) {
          const contacts = await find(`?email=${encodeURIComponent(bad)}`, read);
          const deals = await call(h.base, 'GET', `/deals?owner_email=${encodeURIComponent(bad)}`, { key: read });
          expect([contacts.status, contacts.body.type, contacts.body.errors], bad).toEqual([400, `${PROBLEM}invalid-parameters`, [{ path: 'email', message: expect.any(String) }]]);
          expect([deals.status, deals.body.errors], bad).toEqual([400, [{ path: 'owner_email', message: contacts.body.errors[0].message }]]);
        }
      });
    });

    describe('discover_contacts', () => {
      const discover = (body: Record<string, unknown>, key = write) => call(h.base, 'POST', '/contacts/discover', { key, idem: freshIdem(), body });

      it('suggests the source contacts of a store with their source, creating nothing and emitting nothing', async () => {
        const n = await countContacts();
        const e = (await events()).length;
        const r = await discover({ store_id: 'north' });
        expect(r.status).toBe(200);
        expect(r.body).toEqual({
          object: 'list',
          data: [
            { object: 'contact_suggestion', store_id: 'north', email: 'buyer@north.example', name: 'Bo Buyer', role: 'Buyer', source: 'trade-fair 2025' },
            { object: 'contact_suggestion', store_id: 'north', email: 'ceo@north.example', name: 'Cy Chief', role: 'CEO', source: 'company site' },
            { object: 'contact_suggestion', store_id: 'north', email: 'ops@north.example', name: null, role: null, source: null },
          ],
        });
        expect(await countContacts()).toBe(n);
        expect((await events()).length).toBe(e);
        expect((await discover({ store_id: 'north', roles: ['ceo'] })).body.data.map((s: { email: string }) => s.email)).toEqual(['ceo@north.example']);
        expect((await discover({ store_id: 'south' })).body.data).toEqual([]);
      });

      it('leaves out emails already saved; a suggestion added becomes a discovered contact with its source', async () => {
        const added = await add({ store_id: 'north', email: 'Buyer@NORTH.example'.replace('Buyer', 'buyer'), name: 'Bo' });
        expect(added.body).toMatchObject({ source: 'discovered', source_detail: 'trade-fair 2025' });
        const r = await discover({ store_id: 'north' });
        expect(r.body.data.map((s: { email: string }) => s.email)).toEqual(['ceo@north.example', 'ops@north.example']);
        // Another workspace saved nothing: it is offered everything its own stores have.
        expect((await discover({ store_id: 'east' }, otherWrite)).body.data.map((s: { email: string }) => s.email)).toEqual(['hidden@east.example']);
      });

      it('answers 404 for a store the workspace cannot see', async () => {
        const r = await discover({ store_id: 'east' });
        expect(r.status).toBe(404);
        expect(r.body.detail).not.toContain('hidden@');
      });
    });

    describe('isolation and scopes', () => {
      it("answers 404 for another workspace's contact id", async () => {
        const theirs = await add({ store_id: 'east', email: 'e@east.example' }, otherWrite);
        expect(theirs.status).toBe(201);
        const r = await call(h.base, 'GET', `/contacts/${theirs.body.id}`, { key: read });
        expect(r.status).toBe(404);
        expect(r.body.type).toBe(`${PROBLEM}not-found`);
        expect((await call(h.base, 'GET', '/contacts/con_unknown', { key: read })).status).toBe(404);
        // The same email is free in this workspace (unique per workspace, not globally).
        expect((await add({ store_id: 'north', email: 'e@east.example' })).status).toBe(201);
      });

      it('reads with read:accounts and writes with write:contacts', async () => {
        const c = (await add({ store_id: 'north', email: 'scope@north.example' })).body;
        expect((await add({ store_id: 'north', email: 'nope@north.example' }, read)).status).toBe(403);
        expect((await patch(c.id, { name: 'x' }, read)).status).toBe(403);
        expect((await call(h.base, 'POST', '/contacts/discover', { key: read, idem: freshIdem(), body: { store_id: 'north' } })).status).toBe(403);
        expect((await call(h.base, 'GET', `/contacts/${c.id}`, { key: writeOnly })).status).toBe(403);
        expect((await find('', writeOnly)).status).toBe(403);
        expect((await add({ store_id: 'north', email: 'w@north.example' }, writeOnly)).status).toBe(201);
        expect((await call(h.base, 'GET', `/contacts/${c.id}`, { key: read })).status).toBe(200);
      });
    });
  });
}
