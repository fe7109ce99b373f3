/**
 * The sign-in page against an attacker: failed sign-ins are throttled per account and per client
 * address (in the database, so two processes share the count), a locked account answers the same
 * whether it exists or not, and `next` never leads off-site or into a header unparsed.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApiApp } from '../../src/compose/api-app.js';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash } from '../../src/members/store.js';
import { SIGNIN_THROTTLE, lockAfter } from '../../src/members/signin-throttle.js';
import { upsertMember } from '../../src/members/store.js';
import type { Db } from '../../src/compose/database.js';
import { dialects, openAgain } from '../helpers/db.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';

const PASSWORD = 'correct horse battery';

interface Answer {
  status: number;
  location: string | null;
  retryAfter: string | null;
  cookies: string[];
  text: string;
}

/** A browser of the sign-in page at `origin`: it keeps the pre-session CSRF cookie and token. */
async function signInForm(origin: string, next?: string): Promise<(email: string, password: string, nextOverride?: string) => Promise<Answer>> {
  const page = await fetch(`${origin}/signin${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`);
  expect(page.status).toBe(200);
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const html = await page.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
  const shownNext = /name="next" value="([^"]*)"/.exec(html)![1]!;
  return async (email, password, nextOverride) => {
    const res = await fetch(`${origin}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ csrf, next: nextOverride ?? shownNext.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))), email, password }).toString(),
    });
    return { status: res.status, location: res.headers.get('location'), retryAfter: res.headers.get('retry-after'), cookies: res.headers.getSetCookie(), text: await res.text() };
  };
}

const sessionCookie = (a: Answer) => a.cookies.find((c) => c.startsWith('storelens_session=') && !c.startsWith('storelens_session=;'));

async function member(db: Db, email: string): Promise<void> {
  const ws = await workspace(db);
  await upsertMember(db.kysely, ws.id, email, 'owner', new Date());
  await setPasswordHash(db.kysely, email, await hashPassword(PASSWORD), new Date());
}

describe('the throttle rule', () => {
  it('lets four failures of an account and twenty of an address pass, then doubles the lock from 1 s up to 15 min', () => {
    expect([1, 2, 3, 4].map((n) => lockAfter('account', n))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((n) => lockAfter('account', n))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(lockAfter('account', 50)).toBe(SIGNIN_THROTTLE.maxLockMs);
    expect(lockAfter('address', 20)).toBe(0);
    expect(lockAfter('address', 21)).toBe(1_000);
  });
});

for (const d of dialects)
  describe.skipIf(d.skip)(`sign-in throttling on ${d.label}`, () => {
    let h: Harness;
    let origin: string;
    beforeEach(async () => {
      h = await startApi(d.name);
      origin = new URL(h.base).origin;
      await member(h.db, 'owner@example.com');
    });
    afterEach(async () => h?.close());

    it('answers 50 wrong passwords with 401 and then 429 with Retry-After, and lets the right one in once the lock expires, which starts the count again', async () => {
      const signIn = await signInForm(origin);
      const wrong: Answer[] = [];
      for (let i = 0; i < 50; i++) wrong.push(await signIn('owner@example.com', `wrong ${i}`));
      expect(wrong.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
      expect(new Set(wrong.slice(5).map((a) => a.status))).toEqual(new Set([429]));
      expect(wrong[5]!.retryAfter).toBe('1');
      expect(wrong.every((a) => sessionCookie(a) === undefined)).toBe(true);

      // Locked: the right password is not even checked.
      const early = await signIn('owner@example.com', PASSWORD);
      expect(early.status).toBe(429);
      expect(sessionCookie(early)).toBeUndefined();

      // The lock grows: the next failure after it locks for twice as long.
      h.clock.advance(1_000);
      expect((await signIn('owner@example.com', 'wrong again')).status).toBe(401);
      const longer = await signIn('owner@example.com', PASSWORD);
      expect([longer.status, longer.retryAfter]).toEqual([429, '2']);

      h.clock.advance(2_000);
      const right = await signIn('owner@example.com', PASSWORD);
      expect(right.status).toBe(303);
      expect(right.location).toBe('/integrations');
      expect(sessionCookie(right)).toBeDefined();

      // The success reset the account's count: four typos in a row pass again.
      for (let i = 0; i < 4; i++) expect((await signIn('owner@example.com', `typo ${i}`)).status).toBe(401);
      expect((await signIn('owner@example.com', PASSWORD)).status).toBe(303);
    });

    it('answers an unknown email and a known one the same way when locked', async () => {
      await member(h.db, 'second@example.com');
      const signIn = await signInForm(origin);
      const known: Answer[] = [];
      const unknown: Answer[] = [];
      for (let i = 0; i < 7; i++) {
        known.push(await signIn('second@example.com', `wrong ${i}`));
        unknown.push(await signIn('nobody@example.com', `wrong ${i}`));
      }
      const shape = (a: Answer) => ({ status: a.status, retryAfter: a.retryAfter, text: a.text.replace(/nonce-[^']+'|nonce="[^"]+"/g, 'N').replace(/second@example\.com|nobody@example\.com/g, 'E') });
      expect(known.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
      expect(known.map(shape)).toEqual(unknown.map(shape));
      // A right password does not tell the known account apart while it is locked.
      expect(shape(await signIn('second@example.com', PASSWORD))).toEqual(shape(await signIn('nobody@example.com', PASSWORD)));
    });

    it('throttles a client address that tries many accounts', async () => {
      const signIn = await signInForm(origin);
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) statuses.push((await signIn(`spray${i}@example.com`, 'Winter2026!')).status);
      expect(statuses.slice(0, 21)).toEqual(Array(21).fill(401));
      expect(statuses.slice(21)).toEqual([429, 429, 429, 429]);
      // The owner signing in from the same address waits too.
      expect((await signIn('owner@example.com', PASSWORD)).status).toBe(429);
    });

    it('counts the addresses of one IPv6 /64 network as one address, and an IPv4-mapped address as its IPv4 one', async () => {
      // Loopback offers one IPv6 address: the requests are injected with the address they come from.
      const page = await h.app.inject({ method: 'GET', url: '/signin' });
      const cookie = page.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const from = async (remoteAddress: string, email: string) =>
        (await h.app.inject({ method: 'POST', url: '/signin', remoteAddress, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ csrf, next: '/integrations', email, password: 'Winter2026!' }).toString() })).statusCode;
      const statuses: number[] = [];
      // One host holds a whole /64: each attempt from another address of it, on another account.
      for (let i = 1; i <= 22; i++) statuses.push(await from(`2001:db8:1:2:${i.toString(16)}::1`, `spray${i}@example.com`));
      expect(statuses.slice(0, 21)).toEqual(Array(21).fill(401));
      expect(statuses[21]).toBe(429);
      expect(await from('2001:db8:1:2:ffff:ffff:ffff:ffff', 'owner@example.com')).toBe(429);
      // Another /64 is another address.
      expect(await from('2001:db8:1:3::1', 'other@example.com')).toBe(401);
      // An IPv4 client of a dual-stack server counts as its IPv4 address.
      for (let i = 0; i < 21; i++) await from('192.0.2.7', `v4-${i}@example.com`);
      expect(await from('::ffff:192.0.2.7', 'v4-last@example.com')).toBe(429);
    });

    it('forgets, and deletes, the counts of accounts and addresses that have not failed for an hour', async () => {
      const signIn = await signInForm(origin);
      for (let i = 0; i < 6; i++) await signIn(`tried${i}@example.com`, 'guess');
      const rows = () => h.db.kysely.selectFrom('signin_throttle').select(['kind', 'failures']).execute();
      expect((await rows()).length).toBe(7);
      h.clock.advance(SIGNIN_THROTTLE.forgetMs + 60_000);
      expect((await signIn('owner@example.com', PASSWORD)).status).toBe(303);
      // Only the address and the account of this attempt are left, each counted from the start.
      expect((await rows()).sort((a, b) => (a.kind < b.kind ? -1 : 1)).map((r) => [r.kind, Number(r.failures)])).toEqual([
        ['account', 0],
        ['address', 1],
      ]);
    });

    it('shares the count between two processes: concurrent attempts on both never pass the lock together', async () => {
      const otherDb = await openAgain(h.t);
      let other: FastifyInstance | undefined;
      try {
        other = await buildApiApp({ db: otherDb, now: h.clock.now });
        await other.listen({ port: 0, host: '127.0.0.1' });
        const otherOrigin = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
        const forms = [await signInForm(origin), await signInForm(otherOrigin)];
        const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => forms[i % 2]!('owner@example.com', `wrong ${i}`)));
        const statuses = answers.map((a) => a.status).sort();
        // Four free failures and the fifth, which sets the first lock; every other attempt waits.
        expect(statuses.filter((s) => s === 401)).toHaveLength(5);
        expect(statuses.filter((s) => s === 429)).toHaveLength(11);
      } finally {
        await other?.close();
        await otherDb.close();
      }
    });
  });

describe('where sign-in leads (next)', () => {
  // One server for these cases: each signs in afresh through its own form (its own CSRF cookie)
  // and reads where the answer leads; they fail one sign-in in all (the CR/LF case), far below a
  // lock, and a successful one starts the account's count again.
  let h: Harness;
  let origin: string;
  beforeAll(async () => {
    h = await startApi('SQLite');
    origin = new URL(h.base).origin;
    await member(h.db, 'owner@example.com');
  });
  afterAll(async () => h?.close());

  it('never follows a tab-split path off-site (/signin?next=%2F%09%2Fevil.example%2F)', async () => {
    const signIn = await signInForm(origin, '/\t/evil.example/');
    const res = await signIn('owner@example.com', PASSWORD);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/integrations');
  });

  it.each([
    ['//evil.example/'],
    ['/\\evil.example/'],
    ['/\t/evil.example/'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
    ['/%2F%2Fevil.example/'],
    ['/%5Cevil.example/'],
    ['/%09/evil.example/'],
    ['/ /evil.example/'],
    ['/integrations\u00e9'],
    ['evil.example'],
  ])('sends %j to the default page instead', async (next) => {
    const res = await (await signInForm(origin))('owner@example.com', PASSWORD, next);
    expect([res.status, res.location]).toEqual([303, '/integrations']);
  });

  it('keeps a path of this site, query included', async () => {
    const res = await (await signInForm(origin))('owner@example.com', PASSWORD, '/oauth/interaction/abc123?x=1');
    expect([res.status, res.location]).toEqual([303, '/oauth/interaction/abc123?x=1']);
  });

  it('answers a CR or LF in next without a 5xx: the default page on success, no cookie on failure', async () => {
    const crlf = '/integrations\r\nSet-Cookie: evil=1';
    const page = await fetch(`${origin}/signin?next=${encodeURIComponent(crlf)}`);
    expect(page.status).toBe(200);
    const signIn = await signInForm(origin, crlf);
    const failed = await signIn('owner@example.com', 'wrong password', crlf);
    expect(failed.status).toBe(401);
    expect(sessionCookie(failed)).toBeUndefined();
    expect(failed.cookies.join('\n')).not.toContain('evil');
    for (const next of [crlf, '/a\rb', '/a\nb']) {
      const ok = await signIn('owner@example.com', PASSWORD, next);
      expect([ok.status, ok.location]).toEqual([303, '/integrations']);
      expect(ok.cookies.join('\n')).not.toContain('evil');
    }
  });

  it('answers a cookie that is not valid percent-encoding as if it were absent', async () => {
    const res = await fetch(`${origin}/signin`, { headers: { cookie: 'storelens_csrf=%E0%A4%A; storelens_session=%' } });
    expect(res.status).toBe(200);
    const integrations = await fetch(`${origin}/integrations`, { redirect: 'manual', headers: { cookie: 'storelens_session=%zz' } });
    expect(integrations.status).toBe(303);
  });
});
