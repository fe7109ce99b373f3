/**
 * Behind a proxy that terminates TLS, `storelens api` sees plain http: what it knows of https is
 * its public URL (`--public-url`). Configured https, every cookie it sets is Secure — the
 * sign-in's CSRF cookie, the session, its sign-out, and the OAuth server's interaction cookie —
 * and the OAuth metadata names the public origin; without it (`npm start`, a local demo over
 * http) no cookie is Secure, so the browser keeps them over http.
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runApi } from '../../src/commands/api.js';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash } from '../../src/members/store.js';
import { registerOAuthClient } from '../../src/oauth/store.js';
import { workspace } from '../helpers/api.js';
import { capturedEnv } from '../helpers/cli.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-secure-cookies-');
afterAll(() => dirs.removeAll());

const PUBLIC = 'https://storelens.example.com';
const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:9/callback';

/** Each Set-Cookie of the answer by cookie name, its attributes lower-cased. */
const setCookies = (res: Response): Record<string, string[]> =>
  Object.fromEntries(res.headers.getSetCookie().map((c) => [c.slice(0, c.indexOf('=')), c.split(';').slice(1).map((a) => a.trim().toLowerCase())]));

/** `storelens api` over `t` (with `--public-url` when given), listening on a free loopback port. */
async function api(t: TestDb, publicUrl?: string) {
  const dir = await dirs.make();
  const { env } = capturedEnv(new Date());
  return runApi({ port: 0, host: '127.0.0.1', db: t.dbPath ?? join(dir, 'unused.db'), databaseUrl: t.databaseUrl, requestsOnly: true, runs: join(dir, 'runs'), out: join(dir, 'out'), publicUrl }, env, false);
}

/** The sign-in page, then a sign-in with its CSRF token, then a sign-out: each answer's cookies. */
async function signInAndOut(origin: string): Promise<{ form: Record<string, string[]>; signedIn: Record<string, string[]>; signedOut: Record<string, string[]> }> {
  const page = await fetch(`${origin}/signin`);
  const form = setCookies(page);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const pre = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const post = await fetch(`${origin}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: pre },
    body: new URLSearchParams({ csrf, next: '/integrations', email: 'owner@example.com', password: PASSWORD }).toString(),
  });
  expect(post.status).toBe(303);
  const signedIn = setCookies(post);
  const session = post.headers.getSetCookie().find((c) => c.startsWith('storelens_session='))!.split(';')[0]!;
  const integrations = await fetch(`${origin}/integrations`, { headers: { cookie: session } });
  expect(integrations.status).toBe(200);
  const signOutCsrf = /action="\/signout"><input type="hidden" name="csrf" value="([^"]*)"/.exec(await integrations.text())![1]!;
  const out = await fetch(`${origin}/signout`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session }, body: new URLSearchParams({ csrf: signOutCsrf }).toString() });
  expect(out.status).toBe(303);
  return { form, signedIn, signedOut: setCookies(out) };
}

for (const d of dialects)
  describe.skipIf(d.skip)(`Secure cookies from the public URL on ${d.label}`, () => {
    it('sets every cookie Secure when the public URL is https, though the request came over http', async () => {
      const t = await freshDb(d.name);
      const ws = await workspace(t.db);
      await setPasswordHash(t.db.kysely, 'owner@example.com', await hashPassword(PASSWORD), new Date());
      await registerOAuthClient(t.db, { client_id: 'assistant', redirect_uris: [REDIRECT] }, new Date());
      const running = await api(t, PUBLIC);
      try {
        const origin = new URL(running.url).origin;
        expect(origin).toMatch(/^http:/);
        const { form, signedIn, signedOut } = await signInAndOut(origin);
        expect(form.storelens_csrf).toContain('secure');
        expect(signedIn.storelens_session).toContain('secure');
        expect(signedOut.storelens_session).toEqual(expect.arrayContaining(['max-age=0', 'secure']));

        // The authorization server names the public origin, and its own cookie is Secure too.
        const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
        expect(metadata).toMatchObject({ issuer: PUBLIC, authorization_endpoint: `${PUBLIC}/oauth/auth`, token_endpoint: `${PUBLIC}/oauth/token` });
        const verifier = randomBytes(32).toString('base64url');
        const auth = new URL(`${origin}/oauth/auth`);
        auth.search = new URLSearchParams({
          client_id: 'assistant',
          response_type: 'code',
          redirect_uri: REDIRECT,
          scope: 'read:accounts',
          resource: `${PUBLIC}/api/v1/mcp`,
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
        }).toString();
        const started = await fetch(auth, { redirect: 'manual', headers: { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'evil.example' } });
        expect(started.status).toBe(303);
        expect(started.headers.get('location')).toMatch(/^\/oauth\/interaction\//);
        expect(setCookies(started)._interaction).toContain('secure');
        expect(ws.id).toBeTruthy();
      } finally {
        await running.close();
        await t.cleanup();
      }
    }, 30_000);

    it('sets no cookie Secure without a public URL, so a local demo over http keeps its session', async () => {
      const t = await freshDb(d.name);
      await workspace(t.db);
      await setPasswordHash(t.db.kysely, 'owner@example.com', await hashPassword(PASSWORD), new Date());
      const running = await api(t);
      try {
        const { form, signedIn, signedOut } = await signInAndOut(new URL(running.url).origin);
        for (const attrs of [form.storelens_csrf, signedIn.storelens_session, signedOut.storelens_session]) expect(attrs).not.toContain('secure');
      } finally {
        await running.close();
        await t.cleanup();
      }
    }, 30_000);
  });
