/**
 * Browser sessions of signed-in members: an opaque cookie (HttpOnly, SameSite=Lax) whose hash is
 * stored with a CSRF token every form of the session carries. Forms shown before sign-in (sign-in,
 * invite) carry a double-submit token from a SameSite=Strict cookie. Every cookie is Secure when
 * the origin members reach the server at is https: the configured public URL (a proxy in front
 * terminating TLS), or else the request's own.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { randomToken, tokenHash } from '../core/tokens.js';
import { deleteSession, findSession, insertSession } from '../members/index.js';

export const SESSION_COOKIE = 'storelens_session';
const PRE_CSRF_COOKIE = 'storelens_csrf';
const SESSION_MS = 12 * 3600_000;


export function cookies(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    try {
      out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      // A value that is not valid percent-encoding is none of ours: ignored, never a 500.
    }
  }
  return out;
}

/** Where a cookie is set: the request, its reply, and whether members reach the server over https. */
export interface CookieSite {
  req: FastifyRequest;
  reply: FastifyReply;
  secure: boolean;
}

function setCookie({ reply, secure: isSecure }: CookieSite, name: string, value: string, o: { maxAge: number; sameSite: 'Lax' | 'Strict' }): void {
  const secure = isSecure ? '; Secure' : '';
  const line = `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=${o.sameSite}; Max-Age=${o.maxAge}${secure}`;
  const prior = reply.getHeader('set-cookie');
  reply.header('set-cookie', prior === undefined ? [line] : [...(Array.isArray(prior) ? prior : [String(prior)]), line]);
}

export const sameToken = (a: string | undefined, b: string | undefined): boolean =>
  typeof a === 'string' && typeof b === 'string' && a.length === b.length && a.length > 0 && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface SignedIn {
  email: string;
  csrf: string;
  tokenHash: string;
}

export async function currentSession(db: Db, req: FastifyRequest, now: Date): Promise<SignedIn | undefined> {
  const token = cookies(req)[SESSION_COOKIE];
  if (!token) return undefined;
  const h = tokenHash(token);
  const s = await findSession(db.kysely, h, now);
  return s && { ...s, tokenHash: h };
}

/**
 * Signs the browser in as `email`: a new session and its cookie. The session the browser
 * presented, if any (whoever's), ends in the same transaction: the cookie it replaces opens nothing.
 */
export async function startSession(db: Db, site: CookieSite, email: string, now: Date): Promise<void> {
  const token = randomToken();
  const presented = cookies(site.req)[SESSION_COOKIE];
  await db.write(async (trx) => {
    if (presented) await deleteSession(trx, tokenHash(presented));
    await insertSession(trx, { tokenHash: tokenHash(token), email, csrf: randomToken(), now, expiresAt: new Date(now.getTime() + SESSION_MS) });
  });
  setCookie(site, SESSION_COOKIE, token, { maxAge: SESSION_MS / 1000, sameSite: 'Lax' });
}

export function endSessionCookie(site: CookieSite): void {
  setCookie(site, SESSION_COOKIE, '', { maxAge: 0, sameSite: 'Lax' });
}

/** The CSRF token of a form shown before sign-in (set as a cookie too). */
export function preSessionCsrf(site: CookieSite): string {
  const existing = cookies(site.req)[PRE_CSRF_COOKIE];
  if (existing && existing.length >= 32) return existing;
  const token = randomToken();
  setCookie(site, PRE_CSRF_COOKIE, token, { maxAge: 3600, sameSite: 'Strict' });
  return token;
}

export const preSessionCsrfOk = (req: FastifyRequest, sent: string | undefined): boolean => sameToken(cookies(req)[PRE_CSRF_COOKIE], sent);

export const DEFAULT_NEXT = '/integrations';

/**
 * Where to go after sign-in: `next` when it is a path of this site, else the default page. It
 * must start with one `/` (not `//`), hold only printable ASCII (no control character, space,
 * backslash or other byte a browser might read its own way), no percent-encoded slash,
 * backslash or control character, and parse as a URL of this origin; what is returned is the
 * parsed path and query, so a Location header is never written from the raw input.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2048 || !LOCAL_PATH.test(next) || ENCODED_SEPARATOR.test(next)) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(next, HERE);
  } catch {
    return DEFAULT_NEXT;
  }
  return url.origin === HERE && url.pathname.startsWith('/') && !url.pathname.startsWith('//') ? `${url.pathname}${url.search}` : DEFAULT_NEXT;
}

const HERE = 'http://storelens.invalid';
/** One `/`, then printable ASCII without a backslash; the second character is not `/`. */
const LOCAL_PATH = /^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/;
/** %2F (slash), %5C (backslash), %00–%1F and %7F (control characters). */
const ENCODED_SEPARATOR = /%(2f|5c|[01][0-9a-f]|7f)/i;
