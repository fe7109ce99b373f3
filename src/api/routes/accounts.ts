/** Accounts: the workspace's scored accounts, their detail, signals and status. */
import { z } from 'zod';
import { ACCOUNT_STATUSES } from '../../accounts/statuses.js';
import { markDelivered } from '../../db/accounts.js';
import { type PageRow, rankingRetained, readRankingPage } from '../../db/rankings.js';
import { SIGNAL_TYPES } from '../../signals/types.js';
import { ApiProblem } from '../problems.js';
import { decodeCursor, encodeCursor, filterHash } from '../cursor.js';
import { defineRoute } from '../route-def.js';
import { page, pageQuery, storeParam } from '../schemas.js';

export const Account = z.object({
  object: z.literal('account'),
  store_id: z.string(),
  domain: z.string().nullable(),
  country: z.string().nullable(),
  category: z.string().nullable(),
  plan: z.string().nullable(),
  score: z.number().describe('Ranking score; higher ranks first'),
  in_market: z.boolean(),
  selected_for_first_party_surface: z
    .boolean()
    .describe("Selected for the service's own surface (in the in-market snapshot); proves selection, not rendering or viewing"),
  delivered_to_agent: z.boolean().describe('Delivered to an agent (set by the call that returns the row); proves delivery, not viewing by a human'),
  evidence: z.array(z.record(z.string(), z.unknown())).describe('Signals and features that moved the score'),
  updated_at: z.string(),
});

const Signal = z.object({
  object: z.literal('signal'),
  id: z.string(),
  store_id: z.string(),
  type: z.enum(SIGNAL_TYPES),
  month: z.string().describe('YYYY-MM'),
  detail: z.record(z.string(), z.unknown()),
});

function toAccount(r: PageRow, delivered: boolean): z.output<typeof Account> {
  return {
    object: 'account',
    store_id: r.store_id,
    domain: r.domain,
    country: r.country,
    category: r.category,
    plan: r.plan,
    score: r.score,
    in_market: r.in_market === 1,
    selected_for_first_party_surface: r.in_market === 1,
    delivered_to_agent: delivered || r.delivered_to_agent === 1,
    evidence: JSON.parse(r.evidence) as Record<string, unknown>[],
    updated_at: r.updated_at,
  };
}

export const accountRoutes = [
  defineRoute({
    operationId: 'list_accounts',
    method: 'GET',
    path: '/accounts',
    tag: 'Accounts',
    summary: 'List scored accounts',
    description:
      "The workspace's in-market accounts in ranking order (score descending, then store_id); `filter=all` widens the list to every scored account (search). Every returned row is marked delivered to the agent in the same transaction that serves the page.",
    scope: 'read:accounts',
    kind: 'read',
    planned: 'available',
    query: z.strictObject({
      ...pageQuery,
      filter: z.enum(['in_market', 'all']).default('in_market').describe('`in_market` (default) or `all` scored accounts'),
    }),
    response: page(Account),
    problems: [400],
    async handler({ db, workspace, query, now, cursorSecret }) {
      const f = filterHash({ filter: query.filter });
      const current = workspace.ranking_version;
      let version: number | undefined;
      let after: { score: number; store_id: string } | undefined;
      if (query.cursor) {
        const c = decodeCursor(cursorSecret, query.cursor, { w: workspace.id, f });
        if (c.v > current) throw new ApiProblem('invalid-cursor', 'The cursor is not one this API issued.');
        if (c.v < current && !(await rankingRetained(db.kysely, workspace.id, c.v))) {
          throw new ApiProblem('invalid-cursor', 'The ranking this cursor walks has expired (rankings are kept at least an hour after they change); start again without a cursor.');
        }
        version = c.v;
        after = { score: c.s, store_id: c.i };
      }
      const q = { inMarketOnly: query.filter === 'in_market', after, limit: query.limit + 1 };
      let page = await readRankingPage(db.kysely, workspace.id, version, current, q);
      if (page.rows.some((r, i) => i < query.limit && r.delivered_to_agent !== 1)) {
        // Deliver in the same transaction that serves the page (one batched update).
        page = await db.write(async (trx) => {
          const fresh = await readRankingPage(trx, workspace.id, version ?? page.version, current, q);
          const undelivered = fresh.rows.slice(0, query.limit).filter((r) => r.delivered_to_agent !== 1);
          await markDelivered(trx, workspace.id, undelivered.map((r) => r.store_id), now);
          return fresh;
        });
      }
      const pageRows = page.rows.slice(0, query.limit);
      const last = pageRows[pageRows.length - 1];
      const next =
        page.rows.length > query.limit && last ? encodeCursor(cursorSecret, { w: workspace.id, v: page.version, s: last.score, i: last.store_id, f }) : null;
      // Every row of the page is now delivered (delivery never reverts): the page can be served
      // again as it is until the workspace's accounts or ranking change.
      const cacheable = page.version === current;
      return { status: 200, body: { object: 'list', data: pageRows.map((r) => toAccount(r, true)), next_cursor: next }, cacheable };
    },
  }),
  defineRoute({
    operationId: 'get_account',
    method: 'GET',
    path: '/accounts/{store_id}',
    tag: 'Accounts',
    summary: "Read one account's detail",
    scope: 'read:accounts',
    kind: 'read',
    planned: 'available',
    params: storeParam,
    response: Account.extend({ features: z.record(z.string(), z.unknown()), recent_signals: z.array(Signal) }),
    problems: [404],
  }),
  defineRoute({
    operationId: 'list_account_signals',
    method: 'GET',
    path: '/accounts/{store_id}/signals',
    tag: 'Accounts',
    summary: "Read one account's signal history",
    scope: 'read:accounts',
    kind: 'read',
    planned: 'available',
    params: storeParam,
    query: z.strictObject(pageQuery),
    response: page(Signal),
    problems: [400, 404],
  }),
  defineRoute({
    operationId: 'set_account_status',
    method: 'POST',
    path: '/accounts/{store_id}/status',
    tag: 'Accounts',
    summary: "Set an account's status (operator decision)",
    scope: 'write:deals',
    kind: 'write',
    planned: 'available',
    params: storeParam,
    body: z.strictObject({ status: z.enum(ACCOUNT_STATUSES), note: z.string().max(10_000).optional() }),
    response: z.object({ object: z.literal('account_status'), store_id: z.string(), status: z.enum(ACCOUNT_STATUSES), updated_at: z.string() }),
    problems: [404, 422],
  }),
  defineRoute({
    operationId: 'get_current_list',
    method: 'GET',
    path: '/current-list',
    tag: 'Accounts',
    summary: 'Read the published current list',
    description: 'Unavailable in the wallet-live state.',
    scope: 'read:accounts',
    kind: 'read',
    planned: 'unavailable',
    query: z.strictObject(pageQuery),
    response: page(Account),
    problems: [400],
  }),
];
