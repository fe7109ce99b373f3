/**
 * The learning benchmark: does a workspace's account ranking learn from the outcomes it records,
 * however the agency works its list?
 *
 * A panel is generated with its hidden truth (`generate --truth`: every last-month store's true
 * propensity p, unknown to the service), published with its runs folder (`--cards none`) and
 * ingested into a fresh database, the product's own path. Each hidden rule (learning-policies.ts:
 * the generator's truth, and a two-part rule of conjunctions of the model's inputs) gives every
 * account its p; then an agency works its list in rounds of ROUND_SIZE outcomes under each
 * policy (learning-policies.ts: explore first, or mostly the top):
 *   - each account's outcome is drawn from p: won when u < p, else lost, u a uniform draw hashed
 *     from (seed, store_id), so every arm sees the same outcome for the same store;
 *   - the outcomes are recorded (insertOutcome, as POST /outcomes does) and the workspace is
 *     refreshed (refreshWorkspace, as the worker does after an outcome).
 * After every round, on the accounts not yet labelled by that arm:
 *   E-P@50  = Σ p over the model's top 50 (by score, filter=all) ÷ Σ p over the oracle's top 50 (by p)
 *             (under the two-part rule, p is 0 or 1: the share of the top 50 that meet it, P@50)
 *   NDCG@50 = DCG of the model's top 50 with p as gain ÷ the oracle's.
 * The arms of one rule share the panel and the outcome draws: no learning (the prior: its
 * outcomes, taken explore first, are never recorded, the model never refit), and each policy.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { refreshWorkspace, type RefreshOptions } from '../accounts/refresh.js';
import { openDatabase, type Db } from '../compose/database.js';
import { insertOutcome } from '../accounts/outcomes-store.js';
import { loadSnapshots } from '../accounts/snapshots.js';
import { ingestedMonths } from '../ingest/stores.js';
import { openDuck } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { ingestRuns } from '../ingest/ingest.js';
import { publish } from '../publish/pipeline.js';
import { nextRound, POLICIES, type Policy, RULES, rulePart, type Rule, twoPartTruth, type ListRow, type RulePart } from './learning-policies.js';

export { ROUND_SIZE } from './learning-policies.js';
export const TOP = 50;
export const ARMS = ['no learning', ...POLICIES] as const;
export type Arm = (typeof ARMS)[number];

const NOW = new Date('2026-11-01T00:00:00Z');

/** The benchmark's panel (the size and months of the issue that asked for the two policies): ten seeds, some seven minutes on two busy cores. */
export const LEARNING_PANEL = { stores: 3600, from: '2026-06', to: '2026-10', seeds: 10, rounds: 8 } as const;

export interface Figures {
  /** E-P@50 and NDCG@50 before any outcome (index 0) and after each round. */
  ep: number[];
  ndcg: number[];
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

interface AccountRow extends ListRow {
  score: number;
}

/** The current ranking in its own order (the list an agency reads). */
const listed = (db: Db, wsId: string): Promise<AccountRow[]> =>
  db.kysely
    .selectFrom('workspaces as w')
    .innerJoin('rankings as r', (j) => j.onRef('r.workspace_id', '=', 'w.id').onRef('r.version', '=', 'w.ranking_version'))
    .select(['r.store_id', 'r.score', 'r.in_market', 'r.explore'])
    .where('w.id', '=', wsId)
    .orderBy('r.pos')
    .execute();

/** E-P@k and NDCG@k of the model's scores over the unlabelled accounts (best score first, then store_id). */
export function precision(rows: readonly AccountRow[], truth: ReadonlyMap<string, number>, labelled: ReadonlySet<string>, k = TOP): { ep: number; ndcg: number } {
  const byScore = rows.filter((r) => !labelled.has(r.store_id)).sort((a, b) => b.score - a.score || (a.store_id < b.store_id ? -1 : 1));
  const gains = byScore.map((r) => truth.get(r.store_id) ?? 0);
  const model = gains.slice(0, k);
  const oracle = [...gains].sort((a, b) => b - a).slice(0, k);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const dcg = (xs: number[]) => xs.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  return { ep: sum(model) / sum(oracle), ndcg: dcg(model) / dcg(oracle) };
}

export type SeedFigures = Partial<Record<Rule, Partial<Record<Arm, Figures>>>>;

/** One seed: a fresh database that ingests the runs, then per rule the arms worked one after the other. */
export async function simulateLearning(
  tp: TruthPanel,
  o: { seed: number; rounds: number; dbPath: string; rules?: readonly Rule[]; arms?: readonly Arm[]; refresh?: RefreshOptions; rule?: readonly RulePart[]; log?: (line: string) => void },
): Promise<SeedFigures> {
  const db = await openDatabase({ dbPath: o.dbPath });
  try {
    await ingestRuns(db, tp.runs, { now: () => NOW });
    const months = await ingestedMonths(db.kysely);
    const latest = months[months.length - 1].month;
    const stores = await loadSnapshots(db.kysely, latest);
    const partOf = new Map(stores.map((s) => [s.store_id, s.month === latest ? rulePart(s, o.rule) : -1]));
    const out: SeedFigures = {};
    for (const rule of o.rules ?? RULES) {
      const truth = rule === 'generator truth' ? tp.truth : twoPartTruth(stores, latest, o.rule);
      const byArm: Partial<Record<Arm, Figures>> = {};
      for (const arm of o.arms ?? ARMS) {
        const tag = `${o.seed}_${RULES.indexOf(rule)}_${ARMS.indexOf(arm)}`;
        const wsId = `ws_learning_${tag}`;
        await db.kysely.insertInto('workspaces').values({ id: wsId, name: `learning ${o.seed} ${rule} ${arm}`, created_at: NOW.toISOString() }).execute();
        await refreshWorkspace(db, wsId, NOW, o.refresh);
        const policy: Policy = arm === 'no learning' ? 'explore first' : arm;
        const labelled = new Set<string>();
        let rows = await listed(db, wsId);
        const first = precision(rows, truth, labelled);
        const figures: Figures = { ep: [first.ep], ndcg: [first.ndcg] };
        for (let round = 1; round <= o.rounds; round++) {
          const ids = nextRound(policy, rows, labelled);
          const outcomes = ids.map((id) => ({ id, won: draw(o.seed, id) < (truth.get(id) ?? 0) }));
          for (const id of ids) labelled.add(id);
          if (arm !== 'no learning') {
            await db.write(async (trx) => {
              for (const [j, x] of outcomes.entries()) {
                const at = new Date(NOW.getTime() + round * 60_000 + j).toISOString();
                await insertOutcome(trx, {
                  id: `out_${tag}_${round}_${String(j).padStart(3, '0')}`, workspace_id: wsId, api_key_id: 'key_learning', store_id: x.id,
                  action: x.won ? 'won' : 'lost', value: null, occurred_at: null, note: null, lost_reason: x.won ? null : 'not_a_fit', lost_reason_other: null, recorded_at: at,
                });
              }
            });
            await refreshWorkspace(db, wsId, NOW, o.refresh);
            rows = await listed(db, wsId);
          }
          const f = precision(rows, truth, labelled);
          figures.ep.push(f.ep);
          figures.ndcg.push(f.ndcg);
        }
        // Under the two-part rule: how many of each part's stores the arm has labelled, of how many.
        const parts =
          rule === 'two-part rule'
            ? '; labelled per part ' + [0, 1].map((k) => `${[...labelled].filter((id) => partOf.get(id) === k).length}/${[...partOf.values()].filter((v) => v === k).length}`).join(', ')
            : '';
        o.log?.(`learning: seed ${o.seed} ${rule}, ${arm}: E-P@50 ${figures.ep.map((x) => x.toFixed(2)).join(' ')}${parts}`);
        byArm[arm] = figures;
      }
      out[rule] = byArm;
    }
    return out;
  } finally {
    await db.close();
  }
}

export interface LearningBenchResult {
  seeds: number;
  rounds: number;
  /** Per rule and arm, per round (0 = before any outcome): mean over seeds. */
  mean: Record<Rule, Record<Arm, { ep: number[]; ndcg: number[] }>>;
  /** Per rule and arm, after the last round: E-P@50 and NDCG@50 (mean and 95% interval, t over the seeds) and the worst seed's E-P@50. */
  final: Record<Rule, Record<Arm, { ep: Interval; ndcg: Interval; worst: number }>>;
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
  o: { stores: number; from: string; to: string; seeds: number; rounds: number },
  log: (line: string) => void,
): Promise<LearningBenchResult> {
  const runs: SeedFigures[] = [];
  for (let seed = 1; seed <= o.seeds; seed++) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `storelens-learning-${seed}-`));
    try {
      const tp = await generateTruthPanel(dir, { stores: o.stores, from: o.from, to: o.to, seed: `learning-${seed}` });
      runs.push(await simulateLearning(tp, { seed, rounds: o.rounds, dbPath: path.join(dir, 'api.db'), log }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const mean = {} as LearningBenchResult['mean'];
  const final = {} as LearningBenchResult['final'];
  for (const rule of RULES) {
    mean[rule] = {} as LearningBenchResult['mean'][Rule];
    final[rule] = {} as LearningBenchResult['final'][Rule];
    for (const arm of ARMS) {
      const of = runs.map((x) => x[rule]![arm]!);
      const avg = (k: 'ep' | 'ndcg') => Array.from({ length: o.rounds + 1 }, (_, r) => of.reduce((s, x) => s + x[k][r], 0) / of.length);
      mean[rule][arm] = { ep: avg('ep'), ndcg: avg('ndcg') };
      const last = of.map((x) => x.ep[o.rounds]);
      final[rule][arm] = { ep: interval(last), ndcg: interval(of.map((x) => x.ndcg[o.rounds])), worst: Math.min(...last) };
    }
  }
  return { seeds: o.seeds, rounds: o.rounds, mean, final };
}
