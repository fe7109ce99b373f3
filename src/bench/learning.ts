/**
 * The learning benchmark: does a workspace's account ranking learn from the outcomes it records?
 *
 * A panel is generated with its hidden truth (`generate --truth`: every last-month store's true
 * propensity p, unknown to the service), published with its runs folder (`--cards none`) and
 * ingested into a fresh database, the product's own path; then an agency works its list in
 * rounds of ROUND_SIZE outcomes:
 *   - each round it takes ROUND_SIZE unlabelled accounts of its in-market list: every unlabelled
 *     explore row first (highest score first; the list reserves them so that they get worked),
 *     then the highest-scored unlabelled exploit rows; if the in-market list runs short it goes
 *     on down the whole ranking (filter=all);
 *   - each account's outcome is drawn from p: won when u < p, else lost, u a uniform draw hashed
 *     from (seed, store_id), so every arm sees the same outcome for the same store;
 *   - the outcomes are recorded (insertOutcome, as POST /outcomes does) and the workspace is
 *     refreshed (refreshWorkspace, as the worker does after an outcome).
 * After every round, on the accounts not yet labelled by that arm:
 *   E-P@50  = Σ p over the model's top 50 (by score, filter=all) ÷ Σ p over the oracle's top 50 (by p)
 *   NDCG@50 = DCG of the model's top 50 with p as gain ÷ the oracle's.
 * Three arms share the panel and the outcome draws: no learning (the prior: its outcomes are
 * never recorded, the model never refit), learning exploit-only (exploreShare 0), and learning
 * with exploration (EXPLORE_SHARE of the in-market list by Thompson sampling).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EXPLORE_SHARE, refreshWorkspace } from '../accounts/refresh.js';
import { openDatabase, type Db } from '../compose/database.js';
import { insertOutcome } from '../accounts/outcomes-store.js';
import { openDuck } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { ingestRuns } from '../ingest/ingest.js';
import { publish } from '../publish/pipeline.js';

export const ROUND_SIZE = 25;
export const TOP = 50;
export const ARMS = ['no learning', 'exploit only', 'with exploration'] as const;
export type Arm = (typeof ARMS)[number];

const NOW = new Date('2026-11-01T00:00:00Z');

/** The benchmark's panel: modest, so ten seeds take a few minutes. */
export const LEARNING_PANEL = { stores: 4000, from: '2026-08', to: '2026-10', seeds: 10, rounds: 8 } as const;

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

interface AccountRow {
  store_id: string;
  score: number;
  in_market: number;
  explore: number;
}

const ranked = (db: Db, wsId: string): Promise<AccountRow[]> =>
  db.kysely
    .selectFrom('workspaces as w')
    .innerJoin('rankings as r', (j) => j.onRef('r.workspace_id', '=', 'w.id').onRef('r.version', '=', 'w.ranking_version'))
    .select(['r.store_id', 'r.score', 'r.in_market', 'r.explore'])
    .where('w.id', '=', wsId)
    .orderBy('r.score', 'desc')
    .orderBy('r.store_id')
    .execute();

/** The next round's accounts (the rule in the header). */
export function nextRound(rows: readonly AccountRow[], labelled: ReadonlySet<string>, size = ROUND_SIZE): string[] {
  const open = rows.filter((r) => !labelled.has(r.store_id));
  const picked = [
    ...open.filter((r) => r.in_market && r.explore),
    ...open.filter((r) => r.in_market && !r.explore),
    ...open.filter((r) => !r.in_market),
  ];
  return picked.slice(0, size).map((r) => r.store_id);
}

/** E-P@k and NDCG@k of a ranking (rows by score) over the unlabelled accounts. */
export function precision(rows: readonly AccountRow[], truth: ReadonlyMap<string, number>, labelled: ReadonlySet<string>, k = TOP): { ep: number; ndcg: number } {
  const gains = rows.filter((r) => !labelled.has(r.store_id)).map((r) => truth.get(r.store_id) ?? 0);
  const model = gains.slice(0, k);
  const oracle = [...gains].sort((a, b) => b - a).slice(0, k);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const dcg = (xs: number[]) => xs.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  return { ep: sum(model) / sum(oracle), ndcg: dcg(model) / dcg(oracle) };
}

/** One seed: a fresh database that ingests the runs, the three arms worked one after the other. */
export async function simulateLearning(
  tp: TruthPanel,
  o: { seed: number; rounds: number; dbPath: string; arms?: readonly Arm[]; log?: (line: string) => void },
): Promise<Partial<Record<Arm, Figures>>> {
  const db = await openDatabase({ dbPath: o.dbPath });
  try {
    await ingestRuns(db, tp.runs, { now: () => NOW });
    const share: Record<Arm, number | null> = { 'no learning': null, 'exploit only': 0, 'with exploration': EXPLORE_SHARE };
    const out: Partial<Record<Arm, Figures>> = {};
    for (const arm of o.arms ?? ARMS) {
      const wsId = `ws_learning_${o.seed}_${ARMS.indexOf(arm)}`;
      await db.kysely.insertInto('workspaces').values({ id: wsId, name: `learning ${o.seed} ${arm}`, created_at: NOW.toISOString() }).execute();
      await refreshWorkspace(db, wsId, NOW, { exploreShare: share[arm] ?? EXPLORE_SHARE });
      const labelled = new Set<string>();
      let rows = await ranked(db, wsId);
      const first = precision(rows, tp.truth, labelled);
      const figures: Figures = { ep: [first.ep], ndcg: [first.ndcg] };
      for (let round = 1; round <= o.rounds; round++) {
        const ids = nextRound(rows, labelled);
        const outcomes = ids.map((id) => ({ id, won: draw(o.seed, id) < (tp.truth.get(id) ?? 0) }));
        for (const id of ids) labelled.add(id);
        if (share[arm] !== null) {
          await db.write(async (trx) => {
            for (const [j, x] of outcomes.entries()) {
              const at = new Date(NOW.getTime() + round * 60_000 + j).toISOString();
              await insertOutcome(trx, {
                id: `out_${o.seed}_${round}_${String(j).padStart(3, '0')}_${ARMS.indexOf(arm)}`, workspace_id: wsId, api_key_id: 'key_learning', store_id: x.id,
                action: x.won ? 'won' : 'lost', value: null, occurred_at: null, note: null, lost_reason: x.won ? null : 'not_a_fit', lost_reason_other: null, recorded_at: at,
              });
            }
          });
          await refreshWorkspace(db, wsId, NOW, { exploreShare: share[arm]! });
          rows = await ranked(db, wsId);
        }
        const f = precision(rows, tp.truth, labelled);
        figures.ep.push(f.ep);
        figures.ndcg.push(f.ndcg);
      }
      o.log?.(`learning: seed ${o.seed} ${arm}: E-P@50 ${figures.ep.map((x) => x.toFixed(2)).join(' ')}`);
      out[arm] = figures;
    }
    return out;
  } finally {
    await db.close();
  }
}

export interface LearningBenchResult {
  seeds: number;
  rounds: number;
  /** Per arm, per round (0 = before any outcome): mean over seeds. */
  mean: Record<Arm, { ep: number[]; ndcg: number[] }>;
  /** Per arm, after the last round: mean and 95% interval (t over the seeds) of E-P@50 and NDCG@50. */
  final: Record<Arm, { ep: Interval; ndcg: Interval }>;
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
  const runs: Array<Record<Arm, Figures>> = [];
  for (let seed = 1; seed <= o.seeds; seed++) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `storelens-learning-${seed}-`));
    try {
      const tp = await generateTruthPanel(dir, { stores: o.stores, from: o.from, to: o.to, seed: `learning-${seed}` });
      runs.push((await simulateLearning(tp, { seed, rounds: o.rounds, dbPath: path.join(dir, 'api.db'), log })) as Record<Arm, Figures>);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const mean = {} as LearningBenchResult['mean'];
  const final = {} as LearningBenchResult['final'];
  for (const arm of ARMS) {
    const avg = (k: 'ep' | 'ndcg') => Array.from({ length: o.rounds + 1 }, (_, r) => runs.reduce((s, x) => s + x[arm][k][r], 0) / runs.length);
    mean[arm] = { ep: avg('ep'), ndcg: avg('ndcg') };
    final[arm] = { ep: interval(runs.map((x) => x[arm].ep[o.rounds])), ndcg: interval(runs.map((x) => x[arm].ndcg[o.rounds])) };
  }
  return { seeds: o.seeds, rounds: o.rounds, mean, final };
}
