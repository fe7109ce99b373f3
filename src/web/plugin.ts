/**
 * Member sign-in and Integrations → API & MCP, server-rendered at the root of the server:
 * `/signin`, `/signout`, `/invite/{token}` (set a password from an invite link) and
 * `/integrations` (the MCP URL; create, list and revoke API keys). Every form carries a CSRF
 * token; only an owner or admin of the workspace creates and revokes keys.
 */
import { hash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { issueApiKey, KeyCreatorRefused, KeyManagerRefused, revokeKeyAsMember, deleteSession, deleteSessionsOf, findOpenInvite, membershipsOf, passwordHashOf, setPasswordHash, useInvite, type Membership, PASSWORD_MIN, hashPassword, passwordMatches, addressSubject, admitSignIn, clearFailures, type ThrottleSubject } from '../members/index.js';
import { type AccessChoice, isAccessChoice, keyScopes } from '../api/scopes.js';
import { getApiKey, listApiKeys } from '../api/keys-store.js';
import { lockRows } from '../db/locks.js';
import type { Db } from '../db/database.js';
import { findWorkspace } from '../workspaces/store.js';
import { type OAuthServer, revokeMemberGrants } from '../oauth/index.js';
import { registerInteractions } from './interactions.js';
import { integrationsPage, invitePage, messagePage, signInPage, signOutPage } from './pages.js';
import { currentSession, endSessionCookie, preSessionCsrf, preSessionCsrfOk, safeNext, sameToken, startSession, type CookieSite, type SignedIn } from './session.js';
import { randomToken, tokenHash } from '../core/tokens.js';
import { isUniqueViolation } from '../db/errors.js';

export interface WebOptions {
  db: Db;
  now?: () => Date;
  /** The origin clients reach this server at; default: from each request's Host. */
  publicUrl?: string;
  /** The assistant connector's authorization server: its sign-in and consent pages are served here. */
  oauth?: OAuthServer;
}

type Form = Record<string, string | string[] | undefined>;

/** The one-time token a Create key form carries (`randomToken`'s shape). */
const FORM_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The id of the key a Create key form issues: one per form shown, so the same form sent again
 * (a double click, a reload, Back and resubmit) meets the key it issued, on the primary key.
 */
const keyIdOfForm = (workspaceId: string, formToken: string): string => `key_${hash('sha256', `${workspaceId}\n${formToken}`, 'hex').slice(0, 20)}`;

export const webPlugin: FastifyPluginAsync<WebOptions> = async (app, opts) => {
  const { db } = opts;
  const now = opts.now ?? (() => new Date());
  const originOf = (req: FastifyRequest) => (opts.publicUrl ? opts.publicUrl.replace(/\/$/, '') : `${req.protocol}://${req.host}`);
  /** Cookies are Secure when members reach the server over https, whoever terminates the TLS. */
  const site = (req: FastifyRequest, reply: FastifyReply): CookieSite => ({ req, reply, secure: originOf(req).startsWith('https:') });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
    const form: Form = {};
    for (const [k, v] of new URLSearchParams(body as string)) {
      const prior = form[k];
      form[k] = prior === undefined ? v : [...(Array.isArray(prior) ? prior : [prior]), v];
    }
    done(null, form);
  });

  /**
   * A page, with its CSP. A form's answer may redirect on (Chromium checks form-action along the
   * redirects): to this site, an assistant's https or loopback http callback, or the app scheme
   * the page names in `formAction` (the consent screen's native app, e.g. `com.example.app:`).
   */
  const html = (reply: FastifyReply, status: number, page: (nonce: string) => string, o: { formAction?: string } = {}) => {
    const nonce = randomBytes(16).toString('base64');
    const formAction = ["'self'", 'http:', 'https:', ...(o.formAction ? [o.formAction] : [])].join(' ');
    return reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .send(page(nonce));
  };
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

  if (opts.oauth) registerInteractions(app, { db, now, oauth: opts.oauth, originOf, html });

  app.get('/signin', async (req, reply) => {
    const next = safeNext((req.query as Form).next);
    const csrf = preSessionCsrf(site(req, reply));
    return html(reply, 200, (nonce) => signInPage({ csrf, next, nonce }));
  });

  app.post('/signin', async (req, reply) => {
    const form = (req.body ?? {}) as Form;
    const next = safeNext(one(form.next));
    const email = String(one(form.email) ?? '').trim().toLowerCase();
    if (!preSessionCsrfOk(req, one(form.csrf))) {
      const csrf = preSessionCsrf(site(req, reply));
      return html(reply, 403, (nonce) => signInPage({ csrf, next, email, nonce, error: 'The form expired; please sign in again.' }));
    }
    // Counted before the password is checked, the same for an email no member has.
    const account: ThrottleSubject = { kind: 'account', name: email };
    const admission = await admitSignIn(db, [account, addressSubject(req.ip)], now().getTime());
    if (!admission.admitted) {
      const csrf = preSessionCsrf(site(req, reply));
      const wait = admission.retryAfterSeconds;
      reply.header('retry-after', String(wait));
      return html(reply, 429, (nonce) => signInPage({ csrf, next, email, nonce, error: `Too many failed sign-ins. Try again in ${wait < 120 ? `${wait} seconds` : `${Math.ceil(wait / 60)} minutes`}.` }));
    }
    const ok = await passwordMatches(await passwordHashOf(db.kysely, email), String(one(form.password) ?? ''));
    const member = ok && (await membershipsOf(db.kysely, email)).length > 0;
    if (!member) {
      const csrf = preSessionCsrf(site(req, reply));
      return html(reply, 401, (nonce) => signInPage({ csrf, next, email, nonce, error: 'Wrong email or password, or no workspace membership.' }));
    }
    await clearFailures(db, account);
    await startSession(db, site(req, reply), email, now());
    return reply.redirect(next, 303);
  });

  app.post('/signout', async (req, reply) => {
    const s = await currentSession(db, req, now());
    // A form of an earlier session (this browser signed in again since, maybe as someone else):
    // signing out here would only drop the cookie, leaving the session and its assistants on.
    if (s && !sameToken(s.csrf, one(((req.body ?? {}) as Form).csrf))) return html(reply, 403, (nonce) => signOutPage({ email: s.email, csrf: s.csrf, nonce }));
    // Signing out also disconnects the member's assistants, in every workspace.
    if (s)
      await db.write(async (trx) => {
        // The member's rows first, as recording a consent locks its row: a consent under way
        // either ends before (and is revoked here) or finds this session gone.
        await lockRows(trx, 'members', { email: s.email });
        await deleteSession(trx, s.tokenHash);
        await revokeMemberGrants(trx, s.email);
      });
    endSessionCookie(site(req, reply));
    return reply.redirect('/signin', 303);
  });

  app.get('/invite/:token', async (req, reply) => {
    const invite = await findOpenInvite(db.kysely, tokenHash((req.params as { token: string }).token), now());
    if (!invite) return html(reply, 404, (nonce) => messagePage('Invite not valid', 'This invite link was used already or has expired. Ask for a new one.', nonce));
    const ws = await findWorkspace(db.kysely, invite.workspace_id);
    const csrf = preSessionCsrf(site(req, reply));
    return html(reply, 200, (nonce) => invitePage({ email: invite.email, workspace: ws?.name ?? '', csrf, nonce, minLength: PASSWORD_MIN }));
  });

  app.post('/invite/:token', async (req, reply) => {
    const h = tokenHash((req.params as { token: string }).token);
    const invite = await findOpenInvite(db.kysely, h, now());
    if (!invite) return html(reply, 404, (nonce) => messagePage('Invite not valid', 'This invite link was used already or has expired. Ask for a new one.', nonce));
    const ws = await findWorkspace(db.kysely, invite.workspace_id);
    const form = (req.body ?? {}) as Form;
    const password = String(one(form.password) ?? '');
    const problem = !preSessionCsrfOk(req, one(form.csrf))
      ? 'The form expired; please try again.'
      : password.length < PASSWORD_MIN
        ? `The password needs at least ${PASSWORD_MIN} characters.`
        : password !== one(form.confirm)
          ? 'The two passwords differ.'
          : undefined;
    if (problem) {
      const csrf = preSessionCsrf(site(req, reply));
      return html(reply, 400, (nonce) => invitePage({ email: invite.email, workspace: ws?.name ?? '', csrf, nonce, minLength: PASSWORD_MIN, error: problem }));
    }
    const hashed = await hashPassword(password);
    const used = await db.write(async (trx) => {
      // The member's rows first, as sign-out and recording a consent take them.
      await lockRows(trx, 'members', { email: invite.email });
      if (!(await useInvite(trx, h, now()))) return false;
      await setPasswordHash(trx, invite.email, hashed, now());
      // A new password signs out every browser of the email: whoever knew the old one too.
      await deleteSessionsOf(trx, invite.email);
      return true;
    });
    if (!used) return html(reply, 404, (nonce) => messagePage('Invite not valid', 'This invite link was used already.', nonce));
    await startSession(db, site(req, reply), invite.email, now());
    return reply.redirect(`/integrations?workspace=${encodeURIComponent(invite.workspace_id)}`, 303);
  });

  /**
   * The signed-in member and the workspace of the page (`?workspace=`, default the first), or a
   * redirect to sign in (a form: the sign-in form, saying why). A workspace named that is not theirs (never, or no more: left while its
   * page was open) is a 404, never another of their workspaces: a form acts where it says or not at all.
   */
  const signedIn = async (req: FastifyRequest, reply: FastifyReply): Promise<{ s: SignedIn; ws: Membership; all: Membership[] } | undefined> => {
    const s = await currentSession(db, req, now());
    const all = s ? await membershipsOf(db.kysely, s.email) : [];
    const wanted = one((req.query as Form).workspace);
    if (!s || all.length === 0) {
      if (req.method === 'GET') {
        await reply.redirect(`/signin?next=${encodeURIComponent(req.url)}`, 303);
        return undefined;
      }
      // A form of a page whose session ended meanwhile: said here, and the sign-in leads back to
      // the page (the form's own address answers POST only).
      const next = `/integrations${wanted === undefined ? '' : `?workspace=${encodeURIComponent(wanted)}`}`;
      const csrf = preSessionCsrf(site(req, reply));
      const error = s ? 'You are no longer a member of any workspace; nothing was changed.' : 'Your session ended, so nothing was changed. Sign in to go on.';
      await html(reply, 401, (nonce) => signInPage({ csrf, next, nonce, error, email: s?.email }));
      return undefined;
    }
    const ws = wanted === undefined ? all[0] : all.find((m) => m.workspace_id === wanted);
    if (!ws) {
      await html(reply, 404, (nonce) =>
        messagePage('Workspace not found', 'You are not a member of that workspace; nothing was changed.', nonce, { href: '/integrations', text: 'Your workspaces' }),
      );
      return undefined;
    }
    return { s, ws, all };
  };

  const page = async (req: FastifyRequest, reply: FastifyReply, who: { s: SignedIn; ws: Membership; all: Membership[] }, status = 200, extra: { created?: { name: string; key: string; prefix: string }; error?: string } = {}) => {
    const keys = await listApiKeys(db.kysely, who.ws.workspace_id);
    return html(reply, status, (nonce) =>
      integrationsPage({ email: who.s.email, csrf: who.s.csrf, formToken: randomToken(), workspace: who.ws, workspaces: who.all, keys, mcpUrl: `${originOf(req)}/api/v1/mcp`, nonce, ...extra }),
    );
  };

  app.get('/integrations', async (req, reply) => {
    const who = await signedIn(req, reply);
    if (!who) return reply;
    return page(req, reply, who);
  });

  /** A POST of the page: signed in, the session's CSRF token, and an owner or admin. */
  const managing = async (req: FastifyRequest, reply: FastifyReply) => {
    const who = await signedIn(req, reply);
    if (!who) return undefined;
    const form = (req.body ?? {}) as Form;
    if (!sameToken(who.s.csrf, one(form.csrf))) {
      await page(req, reply, who, 403, { error: 'The form expired; nothing was changed. Please try again.' });
      return undefined;
    }
    if (who.ws.role !== 'owner' && who.ws.role !== 'admin') {
      await page(req, reply, who, 403, { error: 'Only an owner or admin can create and revoke keys.' });
      return undefined;
    }
    return { who, form };
  };

  /**
   * The answer when the role, checked again under the workspace lock, no longer lets the member
   * manage keys (demoted or removed since the form's request was admitted): a message, not the
   * workspace's key list, which a member removed meanwhile may no longer read.
   */
  const roleChanged = (reply: FastifyReply) =>
    html(reply, 403, (nonce) =>
      messagePage('Not allowed', 'Only an owner or admin can create and revoke keys, and your role in this workspace changed meanwhile; nothing was changed.', nonce, { href: '/integrations', text: 'Your workspaces' }),
    );

  app.post('/integrations/keys', async (req, reply) => {
    const m = await managing(req, reply);
    if (!m) return reply;
    const name = String(one(m.form.name) ?? '').trim();
    const raw = m.form.access === undefined ? [] : Array.isArray(m.form.access) ? m.form.access : [m.form.access];
    const choices = raw.filter(isAccessChoice) as AccessChoice[];
    if (!name || name.length > 100) return page(req, reply, m.who, 400, { error: 'Give the key a name (up to 100 characters).' });
    if (choices.length === 0 || choices.length !== raw.length) return page(req, reply, m.who, 400, { error: 'Choose at least one kind of access.' });
    const formToken = one(m.form.form);
    if (formToken === undefined || !FORM_TOKEN.test(formToken)) return page(req, reply, m.who, 400, { error: 'The form expired; nothing was changed. Please try again.' });
    const id = keyIdOfForm(m.who.ws.workspace_id, formToken);
    // The role is checked again under the lock a removal or a role change takes.
    const issued = await issueApiKey(db, { id, workspaceId: m.who.ws.workspace_id, name, scopes: keyScopes(choices), createdBy: m.who.s.email, now: now(), creatorManages: true }).catch((e: unknown) => {
      if (e instanceof KeyCreatorRefused) return null;
      if (isUniqueViolation(e)) return 'sent before' as const;
      throw e;
    });
    if (!issued) return roleChanged(reply);
    if (issued === 'sent before') {
      const earlier = await getApiKey(db.kysely, m.who.ws.workspace_id, id);
      if (!earlier) throw new Error(`key ${id} conflicted but is not in workspace ${m.who.ws.workspace_id}`);
      return page(req, reply, m.who, 409, {
        error: `This form was sent already: it created the key “${earlier.name}” (${earlier.prefix}), whose value was shown that once. If you did not copy it, revoke that key and create another.`,
      });
    }
    return page(req, reply, m.who, 201, { created: { name: issued.name, key: issued.key, prefix: issued.prefix } });
  });

  app.post('/integrations/keys/:id/revoke', async (req, reply) => {
    const m = await managing(req, reply);
    if (!m) return reply;
    const key = await getApiKey(db.kysely, m.who.ws.workspace_id, (req.params as { id: string }).id);
    if (!key) return page(req, reply, m.who, 404, { error: 'There is no such key in this workspace.' });
    // The role is checked again under the lock a removal or a role change takes.
    const refused = await revokeKeyAsMember(db, { workspaceId: m.who.ws.workspace_id, id: key.id, by: m.who.s.email, now: now() }).then(
      () => false,
      (e: unknown) => {
        if (e instanceof KeyManagerRefused) return true;
        throw e;
      },
    );
    if (refused) return roleChanged(reply);
    return reply.redirect(`/integrations?workspace=${encodeURIComponent(m.who.ws.workspace_id)}`, 303);
  });
};
