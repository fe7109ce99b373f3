/**
 * Keyset pages of lists ordered by (seq, id) newest first: the cursor carries the last row's
 * seq and id, signed with the workspace and the list's filters (cursor.ts).
 */
import { decodeCursor, encodeCursor, filterHash } from './cursor.js';
import { ApiProblem } from './problems.js';

export interface SeqPager {
  /** Where the page starts (undefined: the first page). */
  after: { seq: number; id: string } | undefined;
  page<T extends { seq: number; id: string }, R>(rows: readonly T[], limit: number, map: (r: T) => R): { object: 'list'; data: R[]; next_cursor: string | null };
}

export function seqPager(secret: string, workspaceId: string, list: string, filters: Record<string, unknown>, cursor: string | undefined): SeqPager {
  const f = filterHash({ list, ...filters });
  let after: SeqPager['after'];
  if (cursor) {
    const c = decodeCursor(secret, cursor, { w: workspaceId, f });
    if (c.v !== 0 || !Number.isSafeInteger(c.s)) throw new ApiProblem('invalid-cursor', 'The cursor is not one this API issued.');
    after = { seq: c.s, id: c.i };
  }
  return {
    after,
    page(rows, limit, map) {
      const data = rows.slice(0, limit);
      const last = data[data.length - 1];
      const next = rows.length > limit && last !== undefined ? encodeCursor(secret, { w: workspaceId, v: 0, s: last.seq, i: last.id, f }) : null;
      return { object: 'list', data: data.map(map), next_cursor: next };
    },
  };
}
