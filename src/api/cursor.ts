/**
 * Opaque pagination cursors: an HMAC-signed token of {workspace, ranking version, last
 * position, filter hash}. The key lives in the database so every api process shares it.
 * A tampered, foreign or differently filtered cursor ⇒ 400; so is one whose ranking version
 * is no longer kept (see db/rankings.ts: at least an hour after it was superseded).
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
