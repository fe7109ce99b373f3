/**
 * `storelens api`'s stdout may be read by a machine and its stderr is the JSON log: the OAuth
 * library (oidc-provider) prints nothing to either, at start or when an assistant signs in,
 * exchanges its code from a browser app (CORS), asks for an ID token and revokes its token, nor
 * when anyone opens the sign-out pages it would have by default (they are off).
 * The library prints a notice the first time a default it wants an application to set is used.
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash } from '../../src/members/store.js';
import { registerOAuthClient } from '../../src/oauth/store.js';
import { spawnStorelens } from '../helpers/api-processes.js';
import { workspace } from '../helpers/api.js';
import { dialects, freshDb } from '../helpers/db.js';
import { HttpBrowser } from '../helpers/oauth.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-notices-');
afterAll(() => dirs.removeAll());

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:9/callback';
/** Lines of stderr that are not JSON (Node 20, which storelens supports, gets oidc-provider's warning about the runtime at import: a log line at warn, as every console.warn of a serving process). */
const notJson = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('{'));

for (const d of dialects)
  describe.skipIf(d.skip)(`the OAuth library's notices on ${d.label}`, () => {
    it('writes nothing to stdout, and only log lines to stderr, through a start, a sign-in, a CORS token exchange, an ID token and a revocation', async () => {
      const dir = await dirs.make();
      const t = await freshDb(d.name);
      const ws = await workspace(t.db);
      await setPasswordHash(t.db.kysely, 'owner@example.com', await hashPassword(PASSWORD), new Date());
      await registerOAuthClient(t.db, { client_id: 'assistant', redirect_uris: [REDIRECT] }, new Date());
      await registerOAuthClient(t.db, { client_id: 'another', redirect_uris: ['http://127.0.0.1:10/callback'] }, new Date());
      const p = spawnStorelens(t, ['api', '--port', '0', '--host', '127.0.0.1', '--requests-only', '--log-format', 'json', '--runs', join(dir, 'runs'), '--out', join(dir, 'out')]);
      try {
        const origin = new URL((await p.waitFor(/storelens api: (http:\/\/\S+\/api\/v1)/))[1]!).origin;
        expect(p.stdout()).toBe('');
        expect(notJson(p.stderr())).toEqual([]);
        const verifier = randomBytes(32).toString('base64url');
        const auth = new URL(`${origin}/oauth/auth`);
        auth.search = new URLSearchParams({
          client_id: 'assistant',
          response_type: 'code',
          redirect_uri: REDIRECT,
          scope: 'openid offline_access read:accounts',
          prompt: 'consent',
          resource: `${origin}/api/v1/mcp`,
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
        }).toString();
        const answer = await new HttpBrowser(origin).authorize(auth, { email: 'owner@example.com', password: PASSWORD, workspaceId: ws.id });
        // A browser-based assistant: its token request comes with its Origin (CORS).
        const token = await fetch(`${origin}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://127.0.0.1:9' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: answer.get('code')!, redirect_uri: REDIRECT, client_id: 'assistant', code_verifier: verifier, resource: `${origin}/api/v1/mcp` }).toString(),
        });
        expect(token.status).toBe(200);
        expect(token.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:9');
        const tokens = (await token.json()) as { access_token: string; refresh_token: string; id_token?: string };
        expect(tokens.id_token).toBeDefined();
        const revoke = (token: string, client_id: string) =>
          fetch(`${origin}/oauth/token/revocation`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, client_id }).toString() });
        const mcp = async () =>
          (
            await fetch(`${origin}/api/v1/mcp`, {
              method: 'POST',
              headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
            })
          ).status;
        // A client revokes only its own tokens: another's request is answered 200 and changes nothing.
        expect((await revoke(tokens.access_token, 'another')).status).toBe(200);
        expect(await mcp()).toBe(200);
        expect((await revoke(tokens.refresh_token, 'assistant')).status).toBe(200);
        expect(await mcp()).toBe(401);
        // The library's sign-out pages (RP-initiated logout, which no assistant here uses), opened by anyone.
        for (const path of ['/oauth/session/end', '/oauth/session/end/success']) expect((await fetch(`${origin}${path}`)).status).toBe(404);
      } finally {
        await p.stop();
        await t.cleanup();
      }
      expect(p.stdout()).toBe('');
      expect(notJson(p.stderr())).toEqual([]);
    }, 60_000);
  });
