/**
 * The learning benchmark: does a workspace's account ranking learn from the outcomes it records,
 * and does the agency see it in the list it works?
 *
 * A panel is generated with its hidden truth (`generate --truth`: every last-month store's true
 * propensity p, unknown to the service), published with its runs folder (`--cards none`) and
 * ingested into a fresh database, the product's own path; the REST API serves it on a local
 * socket. Each hidden rule (learning-policies.ts: the generator's truth, and rules of
 * conjunctions) gives every account its p; then an agency works its list in rounds of
 * ROUND_SIZE outcomes under each policy (learning-policies.ts: explore first, or mostly the top):
 *   - it reads the in-market list as `GET /api/v1/accounts` answers it (every page, in its
 *     order; when the list runs short it goes on down the whole ranking, as `filter=all` lists
 *     the rest, read here from the ranking itself);
 *   - each account's outcome is drawn from p: won when u < p, else lost, u a uniform draw hashed
 *     from (seed, store_id), so every arm sees the same outcome for the same store;
 *   - the outcomes are recorded with `POST /api/v1/outcomes` and the workspace is refreshed
 *     (refreshWorkspace, as the worker does after an outcome).
 * After every round, on the accounts not yet worked by that arm:
 *   E-P@50 in the list's order = Σ p over the next 50 in the list's order ÷ Σ p over the best 50
 *             (by p) the list could hold: accounts that can be in market at all (canBeInMarket:
 *             present in the latest month with a signal in it or the month before), whatever
 *             their score. Under a rule of conjunctions p is 0 or 1, and this is P@50 while 50
 *             such stores that meet it remain (and the share of those left that the next 50
 *             hold once fewer do: an agency that has worked most of them is not served worse);
 *   … of every account: the same over the best 50 of every account, those the list cannot hold
 *             (no recent signal) included: the figure before;
 *   E-P@50 by score = the same over the 50 best-scored (filter=all, the model's ranking alone);
 *   NDCG@50 = DCG of the model's top 50 by score with p as gain ÷ the oracle's.
 * Also, per arm: the wins among the accounts worked; before any outcome, Spearman's ρ between
 * position and score over the list's rows outside the explore rows; and in how many rounds the
 * agency would have worked other accounts from the same list ordered by score (the same explore
 * rows): the order's cost or gain in wins.
 * The arms of one rule share the panel and the outcome draws: no learning (the prior: its
 * outcomes, taken explore first, are never recorded, the model never refit), and each policy.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { canBeInMarket } from '../accounts/in-market.js';
import { refreshWorkspace, type RefreshOptions } from '../accounts/refresh.js';
import { currentRanking } from '../accounts/ranking-reads.js';
import { openDatabase, type Db } from '../compose/database.js';
import { buildApiApp } from '../compose/api-app.js';
import { generateApiKey } from '../api/keys.js';
import { insertApiKey } from '../api/keys-store.js';
import { upsertMember } from '../members/store.js';
import { loadSnapshots } from '../accounts/snapshots.js';
import { ingestedMonths } from '../ingest/stores.js';
import { openDuck } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { ingestRuns } from '../ingest/ingest.js';
import { publish } from '../publish/pipeline.js';
import { nextRound, POLICIES, type Policy, RULE_PARTS, RULES, rulePart, type Rule, twoPartTruth, type ListRow, type RulePart } from './learning-policies.js';

export { ROUND_SIZE } from './learning-policies.js';
export const TOP = 50;
/**
 * The arms of one rule: no learning, each policy on the list as ranked, and each policy on the
 * same list ordered by score (the same explore rows, at its end): what the order earns or costs
 * an agency that works the list as it is answered. (`reordered` counts the rounds in which the two
 * orders had the agency work other accounts.)
 */
export const ARMS = ['no learning', ...POLICIES, 'explore first, by score', 'mostly top, by score'] as const;
export type Arm = (typeof ARMS)[number];

/** The arm that works `policy` on the list ordered by score. */
export const byScoreArm = (policy: Policy): Arm => `${policy}, by score`;

/** The policy an arm works, and whether on the list ordered by score. */
function armPolicy(arm: Arm): { policy: Policy; byScore: boolean } {
  if (arm === 'no learning') return { policy: 'explore first', byScore: false };
  const byScore = arm.endsWith(', by score');
  return { policy: (byScore ? arm.slice(0, -', by score'.length) : arm) as Policy, byScore };
}

const NOW = new Date('2026-11-01T00:00:00Z');
/** The member whose key the agency calls the API with. */
const AGENCY = 'agency@example.com';

/** The benchmark's panel (the size and months of the issue that asked for the two policies). */
export const LEARNING_PANEL = { stores: 3600, from: '2026-06', to: '2026-10', seeds: 10, rounds: 8 } as const;

export interface Figures {
  /**
   * E-P@50 in the list's order (of what the list could hold, and of every account), E-P@50 by
   * score and NDCG@50 by score, before any outcome (index 0) and after each round.
   */
  listed: number[];
  listedOfAll: number[];
  ep: number[];
  ndcg: number[];
  /** Wins among the accounts worked (cumulative, index 0 = 0). */
  wins: number[];
  /** Before any outcome: Spearman's ρ between position and score outside the explore rows (1: score order). */
  rho: number;
  /** Rounds in which the same list ordered by score would have had the agency work other accounts. */
  reordered: number;
}

/** A generated panel with its hidden truth, published with its runs folder. */
export interface TruthPanel {
  panel: string;
  runs: string;
  truth: Map<string, number>;
}

/** The product's data path: generate (with --truth), then publish every month with its runs (no cards). */
export async function generateTruthPanel(dir: string, o: { stores: number; from: string; to: string; seed: string }): Promise<TruthPanel> {
  const panel = path.join(dir, 'panel');
  const runs = path.join(dir, 'runs');
  const truthFile = path.join(dir, 'truth.ndjson');
  const duck = await openDuck();
  try {
    await generatePanel(duck, { out: panel, stores: o.stores, from: o.from, to: o.to, seed: o.seed, format: 'parquet', truth: truthFile });
  } finally {
    duck.close();
  }
  await publish({ input: panel, out: path.join(dir, 'out'), months: 'all', baseUrl: 'https://stats.example.com', cards: 'none', runs, now: () => NOW });
  const truth = new Map<string, number>();
  for (const line of (await readFile(truthFile, 'utf8')).split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as { store_id: string; p: number };
    truth.set(r.store_id, r.p);
  }
  return { panel, runs, truth };
}

/** A uniform draw in [0, 1) fixed by (seed, store): the store's outcome is the same in every arm. */
function draw(seed: number, storeId: string): number {
  return createHash('sha256').update(`${seed}\0${storeId}`).digest().readUInt32LE(0) / 2 ** 32;
}

export interface AccountRow extends ListRow {
  score: number;
}

/** Every account of the current ranking in its own order (what `filter=all` lists). */
const ranking = async (db: Db, wsId: string): Promise<AccountRow[]> =>
  (await currentRanking(db.kysely, wsId)).rows.map((r) => ({ store_id: r.store_id, score: r.score, in_market: r.in_market, explore: r.explore }));

/** The REST API on a local socket, with no per-key limit in the way of the agency's calls. */
interface Served {
  base: string;
  keyFor(workspaceId: string): Promise<string>;
  close(): Promise<void>;
}

async function serve(db: Db): Promise<Served> {
  let tick = 0;
  // Each call a millisecond after the last, so every outcome has its own recorded_at.
  const app = await buildApiApp({ db, now: () => new Date(NOW.getTime() + ++tick), rateLimits: { read: 1e9, write: 1e9, report: 1e9 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/api/v1`,
    keyFor: async (workspaceId) => {
      const k = generateApiKey();
      await insertApiKey(db.kysely, { id: k.id, workspace_id: workspaceId, name: 'agency', prefix: k.prefix, hash: k.hash, scopes: ['read:accounts', 'write:outcomes'], created_by: AGENCY, created_at: NOW.toISOString() });
      return k.key;
    },
    close: () => app.close(),
  };
}

async function request(base: string, key: string, method: 'GET' | 'POST', url: string, body?: unknown, idempotencyKey?: string): Promise<unknown> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const res = await fetch(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`learning: ${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The in-market list as GET /accounts answers it, every page in its order. */
export async function answeredList(base: string, key: string): Promise<AccountRow[]> {
  const out: AccountRow[] = [];
  let cursor: string | null = null;
  do {
    const page = (await request(base, key, 'GET', `/accounts?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)) as {
      data: { store_id: string; score: number; in_market: boolean; explore: boolean }[];
      next_cursor: string | null;
    };
    for (const r of page.data) out.push({ store_id: r.store_id, score: r.score, in_market: r.in_market ? 1 : 0, explore: r.explore ? 1 : 0 });
    cursor = page.next_cursor;
  } while (cursor !== null);
  return out;
}

/** The list as the agency reads it: the answered in-market list, then every other account in ranking order. */
function asRead(answered: readonly AccountRow[], all: readonly AccountRow[]): AccountRow[] {
  const listed = new Set(answered.map((r) => r.store_id));
  return [...answered, ...all.filter((r) => !listed.has(r.store_id))];
}

const byScore = (rows: readonly AccountRow[]) => [...rows].sort((a, b) => b.score - a.score || (a.store_id < b.store_id ? -1 : 1));

/**
 * E-P@k and NDCG@k of the first k unworked rows in the order given, against the best k unworked
 * rows (when `held` is given, of those it holds, what the list could hold, and the first k); 1
 * when no unworked row has a gain left.
 */
export function precision(rows: readonly AccountRow[], truth: ReadonlyMap<string, number>, labelled: ReadonlySet<string>, k = TOP, held?: ReadonlySet<string>): { ep: number; ndcg: number } {
  const open = rows.filter((r) => !labelled.has(r.store_id));
  const gains = open.map((r) => truth.get(r.store_id) ?? 0);
  const model = gains.slice(0, k);
  // The rows read below a list that ran short count among the best too (the figure stays ≤ 1).
  const oracle = (held ? open.filter((r, j) => j < k || held.has(r.store_id)).map((r) => truth.get(r.store_id) ?? 0) : gains).sort((a, b) => b - a).slice(0, k);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const dcg = (xs: number[]) => xs.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  // Once the agency has worked every account with a gain there is nothing left to find: no order
  // could do better, so the figure is 1 (it was 0 / 0, a NaN that emptied the mean over seeds).
  const best = sum(oracle);
  return best === 0 ? { ep: 1, ndcg: 1 } : { ep: sum(model) / best, ndcg: dcg(model) / dcg(oracle) };
}

/** Spearman's ρ between the rows' order and their scores (1: best score first throughout; ties get their mean rank). */
export function spearmanByPosition(rows: readonly { score: number }[]): number {
  const n = rows.length;
  if (n < 2) return 1;
  const ranks = (xs: number[]) => {
    const idx = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
    const r = new Array<number>(n);
    for (let i = 0; i < n; ) {
      let j = i;
      while (j + 1 < n && idx[j + 1][0] === idx[i][0]) j++;
      for (let k = i; k <= j; k++) r[idx[k][1]] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const a = ranks(rows.map((_, i) => -i));
  const b = ranks(rows.map((r) => r.score));
  const mean = (n - 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (a[i] - mean) * (b[i] - mean);
    da += (a[i] - mean) ** 2;
    db += (b[i] - mean) ** 2;
  }
  return db === 0 ? 1 : num / Math.sqrt(da * db);
}

export type SeedFigures = Partial<Record<Rule, Partial<Record<Arm, Figures>>>>;

/** One seed: a fresh database that ingests the runs and the API serving it, then per rule the arms worked one after the other. */
export async function simulateLearning(
  tp: TruthPanel,
  o: { seed: number; rounds: number; dbPath: string; rules?: readonly Rule[]; arms?: readonly Arm[]; refresh?: RefreshOptions; parts?: Partial<Record<Rule, readonly RulePart[]>>; log?: (line: string) => void },
): Promise<SeedFigures> {
  const db = await openDatabase({ dbPath: o.dbPath });
  let api: Served | undefined;
  try {
    await ingestRuns(db, tp.runs, { now: () => NOW });
    api = await serve(db);
    const months = await ingestedMonths(db.kysely);
    const latest = months[months.length - 1].month;
    const stores = await loadSnapshots(db.kysely, latest);
    // What the in-market list could hold at all (the bench sets no status).
    const holdable = new Set(stores.filter((s) => canBeInMarket(s, latest)).map((s) => s.store_id));
    const out: SeedFigures = {};
    for (const rule of o.rules ?? RULES) {
      const parts = rule === 'generator truth' ? undefined : (o.parts?.[rule] ?? RULE_PARTS[rule]);
      const truth = parts === undefined ? tp.truth : twoPartTruth(stores, latest, parts);
      const partOf = new Map(stores.map((s) => [s.store_id, s.month === latest && parts ? rulePart(s, parts) : -1]));
      const byArm: Partial<Record<Arm, Figures>> = {};
      for (const arm of o.arms ?? ARMS) {
        const tag = `${o.seed}_${RULES.indexOf(rule)}_${ARMS.indexOf(arm)}`;
        const wsId = `ws_learning_${tag}`;
        await db.kysely.insertInto('workspaces').values({ id: wsId, name: `learning ${o.seed} ${rule} ${arm}`, created_at: NOW.toISOString() }).execute();
        await upsertMember(db.kysely, wsId, AGENCY, 'owner', NOW);
        const key = await api.keyFor(wsId);
        const { policy, byScore: listedByScore } = armPolicy(arm);
        const refresh: RefreshOptions = listedByScore ? { ...o.refresh, exploreEvery: 0 } : { ...o.refresh };
        await refreshWorkspace(db, wsId, NOW, refresh);
        const labelled = new Set<string>();
        let answered = await answeredList(api.base, key);
        let all = await ranking(db, wsId);
        const measure = () => {
          const read = asRead(answered, all);
          const scored = precision(byScore(all), truth, labelled);
          return { listed: precision(read, truth, labelled, TOP, holdable).ep, listedOfAll: precision(read, truth, labelled).ep, ep: scored.ep, ndcg: scored.ndcg };
        };
        const first = measure();
        const figures: Figures = {
          listed: [first.listed],
          listedOfAll: [first.listedOfAll],
          ep: [first.ep],
          ndcg: [first.ndcg],
          wins: [0],
          rho: spearmanByPosition(answered.filter((r) => r.explore === 0)),
          reordered: 0,
        };
        for (let round = 1; round <= o.rounds; round++) {
          const read = asRead(answered, all);
          const ids = nextRound(policy, read, labelled);
          // The same list ordered by score, the same rows marked explore.
          const same = new Set(nextRound(policy, asRead(byScore(answered), all), labelled));
          if (ids.some((id) => !same.has(id))) figures.reordered++;
          const outcomes = ids.map((id) => ({ id, won: draw(o.seed, id) < (truth.get(id) ?? 0) }));
          for (const id of ids) labelled.add(id);
          if (arm !== 'no learning') {
            for (const [j, x] of outcomes.entries()) {
              await request(api.base, key, 'POST', '/outcomes', { store_id: x.id, action: x.won ? 'won' : 'lost', ...(x.won ? {} : { lost_reason: 'not_a_fit' }) }, `out_${tag}_${round}_${j}`);
            }
            await refreshWorkspace(db, wsId, NOW, refresh);
            answered = await answeredList(api.base, key);
            all = await ranking(db, wsId);
          }
          const f = measure();
          figures.listed.push(f.listed);
          figures.listedOfAll.push(f.listedOfAll);
          figures.ep.push(f.ep);
          figures.ndcg.push(f.ndcg);
          figures.wins.push(figures.wins[round - 1] + outcomes.filter((x) => x.won).length);
        }
        // Under a rule of conjunctions: how many of each part's stores the arm has worked, of how many.
        const worked = parts
          ? '; worked per part ' + parts.map((_, k) => `${[...labelled].filter((id) => partOf.get(id) === k).length}/${[...partOf.values()].filter((v) => v === k).length}`).join(', ')
          : '';
        const f2 = (x: number) => x.toFixed(2);
        o.log?.(
          `learning: seed ${o.seed} ${rule}, ${arm}: E-P@50 in the list's order ${figures.listed.map(f2).join(' ')} (of every account ${figures.listedOfAll.map(f2).join(' ')}); by score ${figures.ep.map(f2).join(' ')}; ` +
            `wins ${figures.wins[o.rounds]}; rho ${f2(figures.rho)}; rounds reordered ${figures.reordered}${worked}`,
        );
        byArm[arm] = figures;
      }
      out[rule] = byArm;
    }
    return out;
  } finally {
    await api?.close();
    await db.close();
  }
}

export interface LearningBenchResult {
  seeds: number[];
  rounds: number;
  rules: readonly Rule[];
  /** Per rule and arm, per round (0 = before any outcome): mean over seeds. */
  mean: Partial<Record<Rule, Record<Arm, { listed: number[]; ep: number[] }>>>;
  /** Per rule and arm, after the last round (mean and 95% interval, t over the seeds, and the worst seed). */
  final: Partial<Record<Rule, Record<Arm, ArmResult>>>;
}

export interface ArmResult {
  /** E-P@50 in the list's order (of what the list could hold, and of every account), and by score. */
  listed: Interval & { worst: number };
  listedOfAll: Interval & { worst: number };
  ep: Interval & { worst: number };
  ndcg: Interval;
  /** Wins among the accounts worked. */
  wins: Interval;
  /**
   * A policy on the list as ranked: its wins less the same policy's on the list by score, seed by
   * seed (the same panel and outcome draws), so the interval is the difference's own, not two
   * means' noise side by side.
   */
  winsOverByScore?: Interval;
  /** Before any outcome, ρ between position and score outside the explore rows: mean and lowest. */
  rho: { mean: number; worst: number };
  /** Rounds (of all seeds) in which the list ordered by score would have had the agency work other accounts. */
  reordered: number;
}

export interface Interval {
  mean: number;
  low: number;
  high: number;
}

/** Two-sided 95% Student t quantiles by degrees of freedom (1…30). */
const T95 = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05, 2.04];

export function interval(xs: readonly number[]): Interval {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, low: mean, high: mean };
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const h = (T95[Math.min(n - 1, T95.length) - 1] * sd) / Math.sqrt(n);
  return { mean, low: mean - h, high: mean + h };
}

export async function benchLearning(
  o: { stores: number; from: string; to: string; seeds: number | readonly number[]; rounds: number; rules?: readonly Rule[] },
  log: (line: string) => void,
): Promise<LearningBenchResult> {
  const seeds = typeof o.seeds === 'number' ? Array.from({ length: o.seeds }, (_, k) => k + 1) : [...o.seeds];
  const rules = o.rules ?? RULES;
  const runs: SeedFigures[] = [];
  for (const seed of seeds) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `storelens-learning-${seed}-`));
    try {
      const tp = await generateTruthPanel(dir, { stores: o.stores, from: o.from, to: o.to, seed: `learning-${seed}` });
      runs.push(await simulateLearning(tp, { seed, rounds: o.rounds, dbPath: path.join(dir, 'api.db'), rules, log }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const mean: LearningBenchResult['mean'] = {};
  const final: LearningBenchResult['final'] = {};
  for (const rule of rules) {
    const m = {} as Record<Arm, { listed: number[]; ep: number[] }>;
    const f = {} as Record<Arm, ArmResult>;
    for (const arm of ARMS) {
      const of = runs.map((x) => x[rule]![arm]!);
      const avg = (k: 'listed' | 'ep') => Array.from({ length: o.rounds + 1 }, (_, r) => of.reduce((s, x) => s + x[k][r], 0) / of.length);
      m[arm] = { listed: avg('listed'), ep: avg('ep') };
      const last = (k: 'listed' | 'listedOfAll' | 'ep' | 'ndcg' | 'wins') => of.map((x) => x[k][o.rounds]);
      f[arm] = {
        listed: { ...interval(last('listed')), worst: Math.min(...last('listed')) },
        listedOfAll: { ...interval(last('listedOfAll')), worst: Math.min(...last('listedOfAll')) },
        ep: { ...interval(last('ep')), worst: Math.min(...last('ep')) },
        ndcg: interval(last('ndcg')),
        wins: interval(last('wins')),
        rho: { mean: of.reduce((s, x) => s + x.rho, 0) / of.length, worst: Math.min(...of.map((x) => x.rho)) },
        reordered: of.reduce((s, x) => s + x.reordered, 0),
      };
    }
    for (const policy of POLICIES) {
      const mine = runs.map((x) => x[rule]![policy]!.wins[o.rounds]);
      const theirs = runs.map((x) => x[rule]![byScoreArm(policy)]!.wins[o.rounds]);
      f[policy].winsOverByScore = interval(mine.map((w, k) => w - theirs[k]));
    }
    mean[rule] = m;
    final[rule] = f;
  }
  return { seeds, rounds: o.rounds, rules, mean, final };
}
