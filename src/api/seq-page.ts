/**
 * Keyset pages of lists ordered by (seq, id) newest first (the wallet's, reports', outreach's):
 * cursor.ts listPager with the row's seq and id as its key.
 */
import { type ListPage, listPager } from './cursor.js';

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
