/**
 * Keyset pages of lists ordered by (seq, id) newest first (the wallet's, reports', outreach's):
 * cursor.ts listPager with the row's seq and id as its key.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/database.js';
import { type ListPage, listPager } from './cursor.js';
import { type AnyRoute, defineRoute, type RouteHead } from './route-def.js';
import { page, pageQuery } from './schemas.js';

export interface SeqPager {
  /** Where the page starts (undefined: the first page). */
  after: { seq: number; id: string } | undefined;
  page<T extends { seq: number; id: string }, R>(rows: readonly T[], limit: number, map: (r: T) => R): ListPage<R>;
}

export function seqPager(secret: string, workspaceId: string, list: string, filters: Record<string, unknown>, cursor: string | undefined): SeqPager {
  const p = listPager(secret, workspaceId, { list, ...filters }, cursor);
  return {
    after: p.after && { seq: p.after.s, id: p.after.i },
    page: (rows, limit, map) => p.page(rows, limit, (r) => ({ s: r.seq, i: r.id }), map),
  };
}

type SeqRow = { seq: number; id: string };

/** A list of one workspace's rows, newest first, with no filter: everything but its rows is the same for each. */
export interface SeqListDef<T extends SeqRow, I extends z.ZodType> extends RouteHead {
  /** One element of the page's `data`. */
  item: I;
  /** The list's name in its cursors. */
  list: string;
  /** Up to `limit` rows of the workspace after `after` (the store's keyset query). */
  rows(q: Kysely<Database>, workspaceId: string, after: SeqPager['after'], limit: number): Promise<T[]>;
  toItem(r: T): z.output<I>;
}

/** The GET operation that pages a SeqListDef (`limit` and `cursor`; 400 for a bad one). */
export function seqListRoute<T extends SeqRow, I extends z.ZodType>({ item, list, rows, toItem, ...route }: SeqListDef<T, I>): AnyRoute {
  return defineRoute({
    ...route,
    method: 'GET',
    kind: 'read',
    query: z.strictObject(pageQuery),
    response: page(item),
    problems: [400],
    async handler({ db, workspace, query, cursorSecret }) {
      const p = seqPager(cursorSecret, workspace.id, list, {}, query.cursor);
      return { status: 200, body: p.page(await rows(db.kysely, workspace.id, p.after, query.limit + 1), query.limit, toItem) };
    },
  });
}
