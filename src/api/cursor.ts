/**
 * Opaque pagination cursors: an HMAC-signed token of {workspace, ranking version, last
 * position, filter hash}. The key lives in the database so every api process shares it.
 * A tampered, foreign or differently filtered cursor ⇒ 400; so is one whose ranking version
 * is no longer kept (see accounts/rankings.ts: at least an hour after it was superseded).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ApiProblem } from './problems.js';

export interface CursorState {
  /** Workspace id. */
  w: string;
  /** Ranking snapshot (version) the walk started on. */
  v: number;
  /** Last (score, store_id) returned. */
  s: number;
  i: string;
  /** Hash of the filters. */
  f: string;
}

const stateSchema = z.strictObject({ w: z.string(), v: z.number().int(), s: z.number(), i: z.string(), f: z.string() });

const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 18);

export const filterHash = (filters: Record<string, unknown>): string =>
  createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 12);

export function encodeCursor(secret: string, state: CursorState): string {
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** Decodes and checks a cursor against the caller's workspace and filters (the ranking version is the caller's to check). */
export function decodeCursor(secret: string, cursor: string, expect: { w: string; f: string }): CursorState {
  const bad = (why: string) => new ApiProblem('invalid-cursor', why);
  const [payload, sig, ...rest] = cursor.split('.');
  if (!payload || !sig || rest.length) throw bad('The cursor is not one this API issued.');
  const given = Buffer.from(sig, 'base64url');
  const want = mac(secret, payload);
  if (given.length !== want.length || given.toString('base64url') !== sig || !timingSafeEqual(given, want)) throw bad('The cursor is not one this API issued.');
  let state: CursorState;
  try {
    state = stateSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    throw bad('The cursor is not one this API issued.');
  }
  if (state.w !== expect.w) throw bad('The cursor belongs to another workspace.');
  if (state.f !== expect.f) throw bad('The cursor was issued for different filters; pass the same filters or start again without a cursor.');
  return state;
}

/** Where a row of a keyset list stands: a number (a time, a sequence, a month, a position) and a string (an id). */
export interface ListKey {
  s: number;
  i: string;
}

export interface ListPage<R> {
  object: 'list';
  data: R[];
  next_cursor: string | null;
}

/** The walk of one keyset list (every list but the account ranking, whose cursors carry a ranking version). */
export interface ListPager {
  /** Where the page starts: after this key (undefined: the first page). */
  after: ListKey | undefined;
  /** The page of rows read with limit + 1: the first `limit`, mapped, and the cursor after the last. */
  page<T, R>(rows: readonly T[], limit: number, key: (r: T) => ListKey, map: (r: T) => R): ListPage<R>;
}

/** `filters` names the list and everything that narrows it: a cursor walks only the list it was issued for. */
export function listPager(secret: string, workspaceId: string, filters: Record<string, unknown>, cursor: string | undefined): ListPager {
  const f = filterHash(filters);
  let after: ListKey | undefined;
  if (cursor) {
    const c = decodeCursor(secret, cursor, { w: workspaceId, f });
    if (c.v !== 0 || !Number.isSafeInteger(c.s)) throw new ApiProblem('invalid-cursor', 'The cursor is not one this API issued.');
    after = { s: c.s, i: c.i };
  }
  return {
    after,
    page(rows, limit, key, map) {
      const data = rows.slice(0, limit);
      const last = data[data.length - 1];
      const next = rows.length > limit && last !== undefined ? encodeCursor(secret, { w: workspaceId, v: 0, ...key(last), f }) : null;
      return { object: 'list', data: data.map(map), next_cursor: next };
    },
  };
}
