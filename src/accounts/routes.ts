/** Accounts: the workspace's scored accounts, their detail, signals and status. */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { COUNTRY_SAYS, countryCode } from '../core/country.js';
import type { Database, Db } from '../db/database.js';
import { openWallet, recordSupervision } from '../wallet/index.js';
import { rowsEvidence } from './evidence.js';
import { ACCOUNT_STATUSES } from './statuses.js';
import { getAccount, markDelivered, setAccountStatus, statusHistory } from './store.js';
import { dealsOfStore, Deal } from '../deals/index.js';
import { type PageQuery, type PageRow, pageRanking, rankingRetained } from './ranking-reads.js';
import { latestStoreFeatures, pageStoreSignals, signalSummary } from '../ingest/index.js';
import { MONTH, monthNumber, monthText } from '../core/month.js';
import { SIGNAL_TYPES } from '../core/signals.js';
import { ApiProblem } from '../api/problems.js';
import { decodeCursor, encodeCursor, filterHash, listPager } from '../api/cursor.js';
import { defineRoute } from '../api/route-def.js';
import { RecentSignal } from './events.js';
import { keptString, page, pagedUnder, pageQuery, storeParam } from '../api/schemas.js';
import { contactsOfStore, Contact } from '../contacts/index.js';
import { MIN_SAMPLE, ModelInsights } from './insights.js';
import { scoreInterval } from './fit.js';
import { SCORE_RANGE_SAYS } from './imported.js';
import { modelInsights } from './insights-store.js';

const MONTH_TEXT = z.string().regex(MONTH, 'must be a month YYYY-MM');

export const EvidenceItem = z
  .object({
    kind: z.enum(['intercept', 'feature', 'signal']).describe('`intercept` (the model\'s base rate), a `feature` of the store, or a recent `signal`'),
    key: z.string().describe('What moved the score, e.g. `country:US`, `ads:tiktok`, `signal:app_installed`'),
    detail: z.string().describe('The same in plain words'),
    contribution: z.number().describe("Its contribution to the score's logit; all contributions of a row add up to `logit`"),
    month: MONTH_TEXT.optional().describe('For a signal: the month it happened'),
  })
  .meta({ description: 'One term of the additive score: contributions (intercept included) add up to the logit' });

export const ScoreInterval = z
  .object({
    level: z.number().describe('The share of the posterior the interval holds: 0.9'),
    low: z.number().describe('σ(logit − 1.645 × logit_sd): the score is below this with probability 0.05'),
    high: z.number().describe('σ(logit + 1.645 × logit_sd): the score is above this with probability 0.05'),
  })
  .meta({ description: "The score's 90% credible interval under the model's posterior (Laplace approximation); `low ≤ score ≤ high`; its logit_sd shrinks as the model learns from outcomes of accounts like this one" });

export const Account = z.object({
  object: z.literal('account'),
  store_id: z.string(),
  domain: z.string().nullable(),
  country: z.string().nullable(),
  category: z.string().nullable(),
  plan: z.string().nullable(),
  score: z.number().describe('Ranking score (the probability the model gives the account); higher ranks first'),
  logit: z.number().describe('log(score / (1 − score)): the sum of the evidence contributions, added up in their order'),
  logit_sd: z.number().nullable().describe("The posterior standard deviation of `logit` (the model's uncertainty about this account's score); null for a score imported without the model (and for rows ranked before it was kept, until the next refit)"),
  score_interval: ScoreInterval.nullable().describe("The score's 90% credible interval; null when `logit_sd` is (an imported score)"),
  model_version: z.number().int().describe("The workspace model version that scored the row; it moves when outcomes refit the model"),
  in_market: z.boolean().describe('In the in-market list: score above the threshold with a signal in the last two months (or an exploration pick)'),
  explore: z.boolean().describe('In the in-market list as exploration (to learn from outcomes), not for its score alone'),
  status: z.enum(ACCOUNT_STATUSES).describe('The latest operator status (set_account_status); `open` until one is set'),
  selected_for_first_party_surface: z
    .boolean()
    .describe("Selected for the service's own surface (in the in-market snapshot); proves selection, not rendering or viewing"),
  delivered_to_agent: z.boolean().describe('Delivered to an agent (set by the call that returns the row); proves delivery, not viewing by a human'),
  signals: z.array(RecentSignal).describe('The recent signals the score weighs, newest first'),
  evidence: z.array(EvidenceItem).describe('The features and signals that moved the score, with their contributions'),
  updated_at: z.string(),
});

const Signal = z.object({
  object: z.literal('signal'),
  id: z.string().describe('Stable across re-ingests of the same month'),
  store_id: z.string(),
  type: z.enum(SIGNAL_TYPES),
  month: z.string().describe('YYYY-MM'),
  subject: z.string().nullable().describe('The network, app, feature or new plan the signal is about, when it is about one'),
  strength: z.number().describe('In (0, 1]: how strong the change was'),
  detail: z.string().describe('Plain words'),
});

const Features = z
  .object({
    month: z.string().describe('The latest ingested month the store is present in'),
    domain: z.string().nullable(),
    country: z.string().nullable(),
    category: z.string().nullable(),
    plan: z.string().nullable(),
    created_month: z.string().nullable(),
    product_count: z.number().int().nullable(),
    monthly_visits: z.number().int().nullable(),
    est_monthly_revenue_usd: z.number().nullable(),
    apps: z.array(z.string()).describe('Installed app ids'),
    ads: z.array(z.string()).describe('Ad networks whose pixel was seen: meta, google, tiktok, pinterest'),
    agentic: z.array(z.string()).describe('Agentic-commerce features present: llms_txt, product_schema, agent_checkout, mcp_server, ai_crawlers_allowed'),
  })
  .nullable()
  .describe("The store's features in the latest ingested month it is present in (null when the panel has none)");

const StatusEntry = z.object({
  status: z.enum(ACCOUNT_STATUSES),
  note: z.string().nullable(),
  actor: z.string().describe('`key:<key id>` for a change made through the API'),
  created_at: z.string(),
});

const AccountDetail = Account.extend({
  features: Features,
  status_history: z.array(StatusEntry).describe('Status changes, newest first'),
  signal_summary: z.object({
    total: z.number().int(),
    by_type: z.record(z.string(), z.number().int()).describe('Signal count by type'),
    first_month: z.string().nullable(),
    last_month: z.string().nullable(),
  }),
  deals: z.array(Deal).describe("The account's deals, oldest first"),
  contacts: z.array(Contact).describe("The workspace's contacts at this store, oldest first"),
});

/**
 * A decimal number in a query string: `0.7`, `1`, `-2.5`; nothing else (no exponent, no hex, no
 * blanks). A number passed as such (a transport with typed arguments) is taken as it is; `schema`
 * then checks its range.
 */
const queryDecimal = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v, ctx) => {
    if (typeof v !== 'string') return v;
    if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(v)) return Number(v);
    ctx.addIssue({ code: 'custom', message: `must be a decimal number such as 0.7 (got ${JSON.stringify(v.slice(0, 20))})` });
    return z.NEVER;
  }, schema);

const listQuery = z.strictObject({
  ...pageQuery,
  filter: z.enum(['in_market', 'all']).default('in_market').describe('`in_market` (default) or `all` scored accounts'),
  // A score is a probability: a bound out of 0–1 (70 meant as 70 %) would list nothing, or everything.
  min_score: queryDecimal(z.number().min(0, SCORE_RANGE_SAYS).max(1, SCORE_RANGE_SAYS))
    .optional()
    .describe('Only accounts scoring at least this: a probability from 0 to 1, e.g. 0.7'),
  country: z
    .string()
    .transform((v, ctx) => countryCode(v) ?? (ctx.addIssue({ code: 'custom', message: COUNTRY_SAYS }), z.NEVER))
    .optional()
    .describe('Only accounts of this country: a two-letter ISO 3166-1 code, in either case (`gb` finds `GB`)'),
  category: keptString(200).optional().describe('Only accounts of this category (exact; categories may contain commas)'),
  plan: keptString(100).optional().describe('Only accounts on this plan'),
  status: z.enum(ACCOUNT_STATUSES).optional().describe('Only accounts with this status'),
  signal_type: z.enum(SIGNAL_TYPES).optional().describe('Only accounts with a signal of this type (in any ingested month, or since `signals_since`)'),
  signals_since: MONTH_TEXT.optional().describe('Only accounts with a signal (of `signal_type` when given) in this month or later'),
});

const parseJsonArray = (text: string): unknown[] => {
  const v: unknown = JSON.parse(text);
  return Array.isArray(v) ? v : [];
};

/**
 * The logit a row shows: its contributions added up as listed, from the first (the intercept), so
 * they add up exactly to it. The model summed the same terms in the order of its inputs, which the
 * evidence does not keep (largest effect first): the two sums can differ in the last binary digits
 * (about 1e-15), and half the rows of a realistic workspace came out a few units off. Evidence
 * without contributions (its model's weights no longer kept) leaves the stored logit.
 */
function shownLogit(stored: number, evidence: readonly Record<string, unknown>[]): number {
  let sum = 0;
  for (const e of evidence) {
    if (typeof e.contribution !== 'number') return stored;
    sum += e.contribution;
  }
  return evidence.length > 0 && Number.isFinite(sum) ? sum : stored;
}

/** `evidence`: the row's evidence with the contributions of its model version (accounts/evidence.ts). */
function toAccount(r: PageRow, delivered: boolean, evidence: Record<string, unknown>[]): z.output<typeof Account> {
  const sd = r.logit_sd === null ? null : Number(r.logit_sd);
  const logit = shownLogit(Number(r.logit), evidence);
  return {
    object: 'account',
    store_id: r.store_id,
    domain: r.domain,
    country: r.country,
    category: r.category,
    plan: r.plan,
    score: r.score,
    logit,
    logit_sd: sd,
    score_interval: sd === null ? null : scoreInterval(logit, sd),
    model_version: Number(r.model_version),
    in_market: Number(r.in_market) === 1,
    explore: Number(r.explore) === 1,
    status: r.status,
    selected_for_first_party_surface: Number(r.in_market) === 1,
    delivered_to_agent: delivered || Number(r.delivered_to_agent) === 1,
    signals: parseJsonArray(r.signals) as z.output<typeof RecentSignal>[],
    evidence: evidence as z.output<typeof EvidenceItem>[],
    updated_at: r.updated_at,
  };
}

async function withEvidence(db: Db, workspaceId: string, rows: readonly PageRow[]): Promise<z.output<typeof Account>[]> {
  const evidence = await rowsEvidence(db.kysely, workspaceId, rows.map((r) => ({ model_version: Number(r.model_version), evidence: r.evidence })));
  return rows.map((r, k) => toAccount(r, true, evidence[k]));
}

/**
 * The supervision entry of a delivery (accounts newly delivered to the key's agent). Delivery is
 * covered by the plan; accounts beyond its monthly allowance are billed once the month ends, on
 * the monthly statement (src/wallet/statements.ts), not per call: the delivery opens the wallet
 * the statement bills, if the workspace has none yet.
 */
async function superviseDelivery(trx: Kysely<Database>, workspaceId: string, keyId: string, storeIds: readonly string[], now: Date): Promise<void> {
  if (storeIds.length === 0) return;
  await openWallet(trx, workspaceId, now);
  await recordSupervision(
    trx,
    { workspace_id: workspaceId, kind: 'accounts_delivered', actor: `key:${keyId}`, api_key_id: keyId, subject: storeIds[0]!, quantity: storeIds.length, detail: { store_ids: storeIds.slice(0, 200) }, allowed_by: 'plan:allowance' },
    now,
  );
}

const notVisible = (storeId: string) => new ApiProblem('not-found', `No account "${storeId}" in this workspace.`);


export const accountRoutes = [
  defineRoute({
    operationId: 'list_accounts',
    method: 'GET',
    path: '/accounts',
    tag: 'Accounts',
    summary: 'List scored accounts',
    description:
      "The workspace's in-market accounts in ranking order: best score first (then store_id), except that every tenth row is an exploration pick marked `explore` (listed to learn from its outcome, see the accounts guide; explore rows run best score first among themselves, and any beyond one in ten come last); the rest by score descending, then store_id; `filter=all` widens the list to every scored account (search). `min_score`, `country`, `category`, `plan`, `status`, `signal_type` and `signals_since` narrow either list and combine; a cursor only continues the walk with the filters it was issued for (other filters ⇒ 400). Accounts with status `disqualified`, `do_not_contact` or `customer` are never in-market but stay listed with `filter=all`. Every returned row is marked delivered to the agent in the same transaction that serves the page.",
    scope: 'read:accounts',
    kind: 'read',
    planned: 'available',
    query: listQuery,
    response: page(Account),
    problems: [400],
    async handler({ db, workspace, key, query, now, cursorSecret, delivers }) {
      const { filter, min_score, country, category, plan, status, signal_type, signals_since } = query;
      const f = filterHash({ filter, min_score, country, category, plan, status, signal_type, signals_since });
      const current = workspace.ranking_version;
      let version: number | undefined;
      let afterPos: number | undefined;
      if (query.cursor) {
        const c = decodeCursor(cursorSecret, query.cursor, { w: workspace.id, f });
        // A version past the one this process knows was issued by another process that saw a
        // re-rank first (the notice that tells this one is milliseconds behind): the database decides.
        if (c.v !== current && !(await rankingRetained(db.kysely, workspace.id, c.v))) {
          if (c.v > current) throw new ApiProblem('invalid-cursor', 'The cursor is not one this API issued.');
          throw new ApiProblem('invalid-cursor', 'The ranking this cursor walks has expired (a replaced ranking is kept for an hour, fewer when the workspace re-ranks very often); start again without a cursor.');
        }
        version = c.v;
        afterPos = c.s;
      }
      const q: PageQuery = {
        inMarketOnly: filter === 'in_market',
        minScore: min_score,
        country,
        category,
        plan,
        status,
        signalType: signal_type,
        signalsSince: signals_since,
        afterPos,
        limit: query.limit + 1,
      };
      // Rows of a version never change: the page is one version's, whichever statement reads it.
      const at = version ?? current;
      let rows = await pageRanking(db.kysely, workspace.id, at, q);
      // A HEAD sends no row: it delivers none.
      if (delivers && rows.some((r, i) => i < query.limit && Number(r.delivered_to_agent) !== 1)) {
        // Deliver in the same transaction that serves the page (one batched update).
        rows = await db.write(async (trx) => {
          const fresh = await pageRanking(trx, workspace.id, at, q);
          const undelivered = fresh.slice(0, query.limit).filter((r) => Number(r.delivered_to_agent) !== 1);
          await superviseDelivery(trx, workspace.id, key.id, await markDelivered(trx, workspace.id, undelivered.map((r) => r.store_id), now), now);
          return fresh;
        });
      }
      const pageRows = rows.slice(0, query.limit);
      const last = pageRows[pageRows.length - 1];
      const next = rows.length > query.limit && last ? encodeCursor(cursorSecret, { w: workspace.id, v: at, s: last.pos, i: last.store_id, f }) : null;
      // Every row of the page is now delivered (delivery never reverts): the page can be served
      // again as it is until the workspace's accounts or ranking change — unless it filters on
      // signals, which an ingest changes without touching the accounts.
      const cacheable = at === current && signal_type === undefined && signals_since === undefined;
      return { status: 200, body: { object: 'list' as const, data: await withEvidence(db, workspace.id, pageRows), next_cursor: next }, cacheable };
    },
  }),
  defineRoute({
    operationId: 'get_account',
    method: 'GET',
    path: '/accounts/{store_id}',
    tag: 'Accounts',
    summary: "Read one account's detail",
    description:
      "The account row (score, evidence, status, recent signals) plus the store's latest features, the status history (newest first), a summary of its signal history, its deals and its contacts (oldest first). A store the workspace cannot see (outside its profile, or unknown) ⇒ 404. Reading the detail delivers the row to the agent: `delivered_to_agent` becomes true, as for the rows of list_accounts.",
    scope: 'read:accounts',
    kind: 'read',
    planned: 'available',
    params: storeParam,
    response: AccountDetail,
    problems: [404],
    async handler({ db, workspace, key, params, now, delivers }) {
      const row = await getAccount(db.kysely, workspace.id, params.store_id);
      if (!row) throw notVisible(params.store_id);
      const [features, history, summary, contacts] = await Promise.all([
        latestStoreFeatures(db.kysely, params.store_id),
        statusHistory(db.kysely, workspace.id, params.store_id),
        signalSummary(db.kysely, params.store_id),
        contactsOfStore(db.kysely, workspace.id, params.store_id),
      ]);
      if (delivers && Number(row.delivered_to_agent) !== 1) {
        await db.write(async (trx) => {
          await superviseDelivery(trx, workspace.id, key.id, await markDelivered(trx, workspace.id, [params.store_id], now), now);
        });
      }
      const body: z.output<typeof AccountDetail> = {
        ...(await withEvidence(db, workspace.id, [row]))[0],
        features,
        status_history: history,
        signal_summary: summary,
        deals: await dealsOfStore(db.kysely, workspace.id, params.store_id),
        contacts,
      };
      return { status: 200, body };
    },
  }),
  defineRoute({
    operationId: 'list_account_signals',
    path: '/accounts/{store_id}/signals',
    tag: 'Accounts',
    summary: "Read one account's signal history",
    description: "Every signal of the store across all ingested months, newest month first (then by id), paged. A store the workspace cannot see ⇒ 404.",
    scope: 'read:accounts',
    ...pagedUnder(storeParam),
    planned: 'available',
    response: page(Signal),
    async handler({ db, workspace, params, query, cursorSecret }) {
      if (!(await getAccount(db.kysely, workspace.id, params.store_id))) throw notVisible(params.store_id);
      const p = listPager(cursorSecret, workspace.id, { store_id: params.store_id }, query.cursor);
      const rows = await pageStoreSignals(db.kysely, params.store_id, p.after && { month: monthText(p.after.s), id: p.after.i }, query.limit + 1);
      const signal = (r: (typeof rows)[number]) => ({ object: 'signal' as const, id: r.id, store_id: r.store_id, type: r.type, month: r.month, subject: r.subject, strength: r.strength, detail: r.detail });
      return { status: 200, body: p.page(rows, query.limit, (r) => ({ s: monthNumber(r.month), i: r.id }), signal) };
    },
  }),
  defineRoute({
    operationId: 'set_account_status',
    destructive: true,
    method: 'POST',
    path: '/accounts/{store_id}/status',
    tag: 'Accounts',
    summary: "Set an account's status (operator decision)",
    description:
      'Records an operator decision: `open`, `working`, `qualified`, `disqualified`, `customer` or `do_not_contact` (anything else ⇒ 400), with an optional note. It becomes the account\'s `status` (a list_accounts filter) and is appended to its status history with the key as actor. `disqualified`, `do_not_contact` and `customer` accounts are never in-market; they stay listed with `filter=all`. A store the workspace cannot see ⇒ 404. Idempotency-Key: the same key and body replay the answer, the same key with another body ⇒ 409.',
    scope: 'write:deals',
    kind: 'write',
    planned: 'available',
    params: storeParam,
    body: z.strictObject({ status: z.enum(ACCOUNT_STATUSES), note: z.string().max(10_000).optional().describe('Why (free text)') }),
    triggers: ['refresh'],
    response: z.object({
      object: z.literal('account_status'),
      store_id: z.string(),
      status: z.enum(ACCOUNT_STATUSES),
      note: z.string().nullable(),
      updated_at: z.string(),
    }),
    problems: [400, 404, 409],
    async handler({ tx, workspace, key, params, body, now }) {
      const entry = await setAccountStatus(tx, workspace.id, params.store_id, { status: body.status, note: body.note ?? null, actor: `key:${key.id}` }, now);
      if (!entry) throw notVisible(params.store_id);
      return { status: 200, body: { object: 'account_status' as const, store_id: params.store_id, status: entry.status, note: entry.note, updated_at: entry.created_at } };
    },
  }),
  defineRoute({
    operationId: 'get_model_insights',
    method: 'GET',
    path: '/model-insights',
    tag: 'Accounts',
    summary: "Read the workspace model's insights",
    description:
      `The current model version and when it was fitted, the labels it learned from (each store's latest outcome), its largest weights with their posterior standard deviation and 95% interval, and a backtest on the workspace's own outcomes: each store won or lost is scored with the score it had in the ranking current when its first outcome was recorded (never by a model that had seen a label of it), giving the overall win rate, lift at 10 and 50 (win rate of the best-scored 10 or 50 ÷ the overall win rate), calibration by score decile (mean score against observed win rate, with counts), and the win rate and lifts as they stood at each of the last ten model versions. A figure resting on fewer than ${MIN_SAMPLE} outcomes is marked \`small_sample: true\`: read its counts, not its rate.`,
    scope: 'read:accounts',
    kind: 'read',
    planned: 'available',
    response: ModelInsights,
    async handler({ db, workspace }) {
      return { status: 200, body: await modelInsights(db.kysely, workspace.id) };
    },
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
