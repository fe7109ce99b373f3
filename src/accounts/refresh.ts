/**
 * Re-scoring a workspace: its visible stores (the ingested panel through its profile), its
 * labels (outcomes), a fitted model, the in-market list with its exploration share, and the
 * events of what changed — written in one transaction (accounts rows, model, outbox).
 *
 * A refresh is skipped when nothing it reads has moved (the ingested runs, the profile, the
 * outcomes, the statuses): the inputs' stamp is kept with the model. Without store data there is
 * nothing to score: the imported list is written again when a status was decided since
 * (statuses-list.ts).
 */
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Db, Database } from '../db/database.js';
import { withLease } from '../db/leases.js';
import type { DomainEvent } from '../core/event-declaration.js';
import { appendEvents } from '../webhooks/index.js';
import { currentRanking, detailSignals, rankingHead } from './ranking-reads.js';
import { type DetailRow, type DetailSource, inWrites, type RankedColumns, startRanking, writeRanking } from './rankings.js';
import { packTerms } from './evidence.js';
import { listOutcomes } from './outcomes-store.js';
import { getProfile } from './profile-store.js';
import { loadSnapshots } from './snapshots.js';
import { ingestedMonths } from '../ingest/index.js';
import { labelsOf } from './labels.js';
import { fitModel, logitSds, posteriorCovariance } from './fit.js';
import { inputSpace, logitsOf, sigmoid, termMatrix, termsAt, weightsByKey, type InputSpace, type RecentSignal, type StoreSnapshot, type TermMatrix } from './model.js';
import { matchesProfile, type Profile } from './profile.js';
import { canBeInMarket, EXPLORE_EVERY, EXPLORE_SHARE, listOrder, NOT_IN_MARKET, scoreOrder, selectInMarketColumns } from './in-market.js';
import type { AccountStatus } from './statuses.js';
import { relistStatuses } from './statuses-list.js';
import { compareLists, type IdIndex, idIndex, listEvents } from './list-changes.js';
import type { PriorSds } from './model-types.js';

/** Recent signals shown on an account row. */
export const ROW_SIGNALS = 10;

export interface RefreshResult {
  /** False when nothing the ranking reads had changed. */
  refreshed: boolean;
  model_version: number;
  accounts: number;
  in_market: number;
  explore: number;
  labels: number;
  events: number;
}

interface Snapshots {
  generation: string;
  latest: string;
  stores: StoreSnapshot[];
}

/** Per database, the last generation's snapshots: every workspace reads the same stores. */
const cache = new WeakMap<Kysely<Database>, Snapshots>();

async function snapshots(q: Kysely<Database>): Promise<Snapshots | undefined> {
  const gen = await ingestedMonths(q);
  if (gen.length === 0) return undefined;
  const generation = gen.map((g) => `${g.month}=${g.run_id}`).join(',');
  let s = cache.get(q);
  if (s?.generation !== generation) {
    const latest = gen[gen.length - 1].month;
    // In store_id order (loadSnapshots'): a workspace's accounts are indexed so, and a tie on the score goes to the lower index.
    const stores = await loadSnapshots(q, latest);
    s = { generation, latest, stores };
    cache.set(q, s);
  }
  return s;
}

interface WorkspaceInputs {
  dataStamp: string;
  /** The visible stores in store_id order (index k throughout a refresh). */
  visible: StoreSnapshot[];
  ids: string[];
  indexOf: IdIndex;
  space: InputSpace;
  /** Every visible store's terms. */
  matrix: TermMatrix;
  /** 1: visible[k] could be in market with the status open (canBeInMarket). */
  eligibleOpen: Uint8Array;
}

/** Per database and workspace, the inputs of the last data stamp: a refit on new labels reuses them. */
const inputsCache = new WeakMap<Kysely<Database>, Map<string, WorkspaceInputs>>();

/** The workspace's inputs (made anew when the data stamp moved). */
function workspaceInputs(q: Kysely<Database>, workspaceId: string, dataStamp: string, snap: Snapshots, profile: Profile | null): WorkspaceInputs {
  let byWs = inputsCache.get(q);
  if (!byWs) inputsCache.set(q, (byWs = new Map()));
  const hit = byWs.get(workspaceId);
  if (hit?.dataStamp === dataStamp) return hit;
  const visible = snap.stores.filter((s) => matchesProfile(profile, s));
  const space = inputSpace(visible, snap.latest);
  const ids = visible.map((s) => s.store_id);
  const made: WorkspaceInputs = {
    dataStamp,
    visible,
    ids,
    indexOf: idIndex(ids),
    space,
    matrix: termMatrix(space, visible),
    eligibleOpen: Uint8Array.from(visible, (s) => (canBeInMarket(s, snap.latest) ? 1 : 0)),
  };
  byWs.set(workspaceId, made);
  return made;
}

/**
 * The form of the inputs and of the evidence a full refresh writes: changed whenever the same
 * data makes other inputs (2: size inputs kept to SIZE_DECIMALS decimals, model.ts), so that the
 * first refresh after an upgrade writes every account's evidence again rather than carrying
 * evidence made the old way beside logits made the new way (their contributions would no longer
 * add up exactly to the logit).
 */
const INPUTS_FORM = 2;

/**
 * Cheap aggregates that move whenever a refresh would read something new: `data` (the ingested
 * runs and the profile: what the evidence depends on) and `all` (also outcomes and statuses).
 */
async function stamp(q: Kysely<Database>, workspaceId: string, generation: string): Promise<{ data: string; all: string }> {
  const { rows } = await sql<{ p: string | null; o: unknown; om: string | null; s: unknown; sm: string | null }>`
    select
      (select updated_at || profile from workspace_profiles where workspace_id = ${workspaceId}) as p,
      (select count(*) from outcomes where workspace_id = ${workspaceId}) as o,
      (select max(recorded_at) from outcomes where workspace_id = ${workspaceId}) as om,
      (select count(*) from account_statuses where workspace_id = ${workspaceId}) as s,
      (select max(created_at) from account_statuses where workspace_id = ${workspaceId}) as sm`.execute(q);
  const r = rows[0];
  const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
  return { data: hash([INPUTS_FORM, generation, r.p]), all: hash([INPUTS_FORM, generation, r.p, String(r.o), r.om, String(r.s), r.sm]) };
}

/** What workspace_models.model holds (the weights of each version are in model_weights). */
export interface StoredModel {
  stamp: string;
  data_stamp: string;
  latest_month: string;
  threshold: number;
  explore_share: number;
  /** The prior sd the labels set per group of inputs (prior.ts LEARNED_SD); absent before any label. */
  prior_sd?: PriorSds;
}

export interface RefreshOptions {
  /** Re-score even when nothing the ranking reads has moved. */
  force?: boolean;
  /** Share of the in-market list drawn for exploration (default EXPLORE_SHARE; 0 turns it off). */
  exploreShare?: number;
  /** One explore row in every how many positions of the list (default EXPLORE_EVERY; 0: score order). */
  exploreEvery?: number;
  /** Told how long each phase of the refresh took, in ms (the ranking benchmark's profile). */
  onPhase?: (phase: RefreshPhase, ms: number) => void;
}

/** The phases of a refresh, in order (RefreshOptions.onPhase). */
export type RefreshPhase = 'read' | 'inputs' | 'fit' | 'score' | 'list' | 'details' | 'events' | 'write';

/** Re-scores one workspace if anything it reads moved (or always, with force). */
export async function refreshWorkspace(db: Db, workspaceId: string, now: Date, opts: RefreshOptions = {}): Promise<RefreshResult> {
  const exploreShare = opts.exploreShare ?? EXPLORE_SHARE;
  let lapStart = performance.now();
  const lap = (phase: RefreshPhase) => {
    const t = performance.now();
    opts.onPhase?.(phase, t - lapStart);
    lapStart = t;
  };
  const snap = await snapshots(db.kysely);
  const prev = await db.kysely.selectFrom('workspace_models').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  const none: RefreshResult = { refreshed: false, model_version: prev?.version ?? 0, accounts: 0, in_market: 0, explore: 0, labels: prev?.labels ?? 0, events: 0 };
  if (!snap) {
    // No store data: nothing to score, but the imported list applies the statuses decided since it was written.
    const relisted = await relistStatuses(db, workspaceId, now);
    return relisted ? { ...none, refreshed: true, ...relisted } : none;
  }
  const inputs = await stamp(db.kysely, workspaceId, snap.generation);
  const prevModel = prev ? (JSON.parse(prev.model) as StoredModel) : undefined;
  if (!opts.force && prevModel?.stamp === inputs.all) return none;
  // The evidence depends on the data only: a refit on new labels rewrites scores, not evidence.
  const full = opts.force === true || prevModel?.data_stamp !== inputs.data;

  const { profile } = await getProfile(db.kysely, workspaceId);
  const outcomes = await listOutcomes(db.kysely, workspaceId);
  const current = await currentOf(db.kysely, workspaceId);
  const statuses = await accountStatuses(db.kysely, workspaceId);
  const fullWrite = full || current.gen === null;
  // New signals come only with new data (a full refresh): what each account showed before.
  const oldSignals = fullWrite && current.gen !== null ? await detailSignals(db.kysely, workspaceId, current.gen) : new Map<string, string>();
  lap('read');
  const ws = workspaceInputs(db.kysely, workspaceId, inputs.data, snap, profile);
  const { visible, ids, indexOf, space, matrix } = ws;
  const n = visible.length;
  const labels = labelsOf(outcomes).filter((l) => indexOf.has(l.store_id));
  lap('inputs');
  const model = fitModel(
    space,
    labels.map((l) => ({ terms: termsAt(matrix, indexOf.get(l.store_id)!), y: l.y, weight: l.weight })),
  );
  lap('fit');
  const run = inWrites(db);
  const next = await startRanking(run, workspaceId, fullWrite, now);
  // The model's own version (1, 2, …): it moves with every refit; the ranking's is next.version.
  const version = (prev?.version ?? 0) + 1;

  // Every account in typed memory, by its index in store_id order.
  const logit = logitsOf(model.weights, matrix);
  // The posterior covariance once per fit; each account's spread is a sum over its own terms.
  const sd = logitSds(posteriorCovariance(model), matrix);
  const score = Float64Array.from(logit, sigmoid);
  const eligible = Uint8Array.from(ws.eligibleOpen);
  for (const [id, status] of statuses) {
    const k = indexOf.get(id);
    if (k !== undefined && NOT_IN_MARKET.has(status)) eligible[k] = 0;
  }
  const labelled = new Uint8Array(n);
  for (const l of labels) labelled[indexOf.get(l.store_id)!] = 1;
  lap('score');
  const byScore = scoreOrder(score);
  const list = selectInMarketColumns({ score, logit, sd, eligible, labelled }, byScore, exploreShare);
  const ranked: RankedColumns = {
    storeIds: ids,
    score,
    logit,
    logitSd: sd,
    inMarket: list.inMarket,
    explore: list.explore,
    modelVersion: new Int32Array(n).fill(version),
    order: listOrder(labelled, byScore, list, opts.exploreEvery ?? EXPLORE_EVERY),
  };
  lap('list');
  // Each account's evidence and signals as the write reaches it (visible is in store_id order):
  // packed from its row of the term matrix (its terms made again with their signals only when it
  // has a signal), so no account's evidence outlives its part.
  const details: DetailSource | undefined = fullWrite
    ? {
        count: n,
        at: (k): DetailRow => {
          const s = visible[k];
          return {
            store_id: s.store_id,
            domain: s.domain,
            country: s.country,
            category: s.category,
            plan: s.plan,
            evidence: packTerms(space, s, matrix, k),
            signals: s.signals.length === 0 ? '[]' : JSON.stringify(s.signals.slice(0, ROW_SIGNALS).map(rowSignal)),
          };
        },
      }
    : undefined;
  lap('details');
  const events = changeEvents(version, current, oldSignals, ranked, ws);
  lap('events');
  const threshold = list.threshold;
  const stored: StoredModel = { stamp: inputs.all, data_stamp: inputs.data, latest_month: snap.latest, threshold, explore_share: exploreShare, ...(model.priorSd ? { prior_sd: model.priorSd } : {}) };

  const made = await writeRanking(run, workspaceId, next, {
    rows: ranked,
    details,
    basedOn: current.version,
    now,
    // The model and the events commit with the flip that makes the ranking current.
    onCurrent: async (trx) => {
      await appendEvents(trx, workspaceId, events, now);
      // Written at the ranking's own time (its created_ms): rankings.ts pruneRankings keeps it as long as a ranking may show it.
      await trx.insertInto('model_weights').values({ workspace_id: workspaceId, version, weights: JSON.stringify(weightsByKey(model)), created_ms: now.getTime() }).execute();
      const values = { version, model: JSON.stringify(stored), labels: labels.length, fitted_at: now.toISOString() };
      await trx
        .insertInto('workspace_models')
        .values({ workspace_id: workspaceId, ...values })
        .onConflict((oc) => oc.column('workspace_id').doUpdateSet(values))
        .execute();
    },
  });
  lap('write');
  if (!made) return none;
  remember(db.kysely, workspaceId, { version: next.version, gen: next.gen, ids, inMarket: list.inMarket });
  return { refreshed: true, model_version: version, accounts: n, in_market: list.inMarketCount, explore: list.picks.length, labels: labels.length, events: events.length };
}

interface KnownRanking {
  version: number;
  gen: number | null;
  /** Its stores, and 1 for each one in market. */
  ids: readonly string[];
  inMarket: Uint8Array;
}

/** Per database and workspace, the ranking this process wrote last: the next refit compares against it without reading it back. */
const written = new WeakMap<Kysely<Database>, Map<string, KnownRanking>>();

function remember(q: Kysely<Database>, workspaceId: string, r: KnownRanking): void {
  let byWs = written.get(q);
  if (!byWs) written.set(q, (byWs = new Map()));
  byWs.set(workspaceId, r);
}

/** The current ranking: the one this process wrote, if it still is current, else read. */
async function currentOf(q: Kysely<Database>, workspaceId: string): Promise<KnownRanking> {
  const hit = written.get(q)?.get(workspaceId);
  if (hit && (await rankingHead(q, workspaceId)).version === hit.version) return hit;
  const { rows, ...head } = await currentRanking(q, workspaceId);
  return { ...head, ids: rows.map((r) => r.store_id), inMarket: Uint8Array.from(rows, (r) => (r.in_market === 1 ? 1 : 0)) };
}

/** How long a re-rank's lease lasts without renewal (renewed every third of it while the refit runs). */
export const REFRESH_LEASE_MS = 120_000;

/**
 * The background re-rank of one workspace: refreshWorkspace under the workspace's lease
 * (`refresh:<id>`, db/leases.ts), so however many processes share the database a workspace is
 * refitted in one of them at a time; undefined, without reading anything, when another process
 * holds it (that process's refit, or the next periodic turn, picks up what moved). Leases are on
 * the wall clock, which every process shares, whatever `now` the ranking is stamped with.
 */
export async function refreshLeased(db: Db, workspaceId: string, now: Date, opts: RefreshOptions & { onLost?: (e: Error) => void } = {}): Promise<RefreshResult | undefined> {
  const r = await withLease(db, `refresh:${workspaceId}`, { nowMs: Date.now, ms: REFRESH_LEASE_MS, onLost: opts.onLost }, () => refreshWorkspace(db, workspaceId, now, opts));
  return r.held ? r.value : undefined;
}

/** The ids of every workspace, in order. */
export async function workspaceIds(db: Db): Promise<string[]> {
  return (await db.kysely.selectFrom('workspaces').select('id').orderBy('id').execute()).map((w) => w.id);
}

/** Every workspace, one after the other, each under its lease (one another process holds is left out). */
export async function refreshAll(db: Db, now: Date): Promise<Map<string, RefreshResult>> {
  const out = new Map<string, RefreshResult>();
  for (const id of await workspaceIds(db)) {
    const r = await refreshLeased(db, id, now);
    if (r) out.set(id, r);
  }
  return out;
}

const rowSignal = (g: RecentSignal) => ({ id: g.id, type: g.type, month: g.month, subject: g.subject, detail: g.detail, strength: g.strength });

/**
 * The events of a new ranking against the one before (`before`; `oldSignals`: the signals each
 * row showed, on new data): the list's entries and exits as every writer finds them
 * (list-changes.ts), and store.signal for an account that stays on the list with a new signal.
 */
function changeEvents(
  version: number,
  before: KnownRanking,
  oldSignals: ReadonlyMap<string, string>,
  now: RankedColumns,
  ws: Pick<WorkspaceInputs, 'visible' | 'indexOf'>,
): DomainEvent[] {
  const signals = (k: number) => ws.visible[k].signals.slice(0, ROW_SIGNALS).map(rowSignal);
  return listEvents(compareLists(before, now, ws.indexOf), now, {
    signals,
    goneVersion: version,
    stayed: (k) => {
      const store_id = now.storeIds[k];
      if (!oldSignals.has(store_id)) return [];
      // New: not shown before, and recent enough that it would have been shown had it existed
      // (a signal that only moves up into the shown ten is not news).
      // Shown newest month first, then by id (accounts/snapshots.ts).
      const shown = JSON.parse(oldSignals.get(store_id)!) as { id: string; month: string }[];
      const seen = new Set(shown.map((g) => g.id));
      const last = shown.length >= ROW_SIGNALS ? shown[shown.length - 1] : undefined;
      const wouldShow = (g: { id: string; month: string }) => !last || g.month > last.month || (g.month === last.month && g.id < last.id);
      return signals(k)
        .filter((g) => !seen.has(g.id) && wouldShow(g))
        .map((signal): DomainEvent => ({ type: 'store.signal', data: { store_id, signal, score: now.score[k], model_version: version } }));
    },
  });
}

/** The operator's status of each account that has one other than open. */
async function accountStatuses(q: Kysely<Database>, workspaceId: string): Promise<Map<string, AccountStatus>> {
  const rows = await q.selectFrom('accounts').select(['store_id', 'status']).where('workspace_id', '=', workspaceId).where('status', '<>', 'open').execute();
  return new Map(rows.map((r) => [r.store_id, r.status]));
}
