// Scratch trial (issue 33, 2026-12-02, later): the learning replay (scripts/learning-replay.mjs,
// the same panels, cache and draws) with one more way of working mostly the top, "mostly top, kg":
// the round's five explore rows as today, then its 20 other rows taken greedily from the list's
// best 50 without an outcome by chance + trade × knowledge gradient, each pick's outcome
// fantasised (the explore rows' outcomes first). The knowledge gradient of one outcome of account x
// (p = σ(xᵀw), Laplace posterior w, Σ): every account k's logit moves by
// (x_kᵀ Σ x)(y − p) / (1 + p(1 − p) xᵀΣx); its value is the expected sum of the chances of the
// best 50 (among the 400 best-scored eligible accounts without an outcome, x and the round's
// picks left out) over y ∈ {0, 1}, less that sum now. A pick updates Σ by rank one (Fisher weight
// p(1 − p)); the mode is kept. The trade is --c times a measure of the workspace's spread:
//   --scale pq   mean p(1 − p) over the list's best 50 without an outcome (the candidates)
//   --scale pq2  the same, squared;  --scale one  c itself (the first trial's constant trade)
//   --scale sd   the mean posterior sd of the candidates' logits
//   --scale brier  the mean squared residual (y − p)² of the accounts worked so far at today's
//                  chances (--first before any outcome, 0.25 unless told);  --scale brier2  the same, squared
// Each "kg" line adds the wins of each round, the trade of each round and the three measures
// (pq/sd/brier) it was read from. Figures: docs/measurements/learning.md. `npm run build` first.
//   node scripts/kg-replay.mjs --seeds 11-40 --rules "generator truth" --arms "mostly top, kg" --c 1000 --scale brier2 --first 0
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
const args = Object.fromEntries(process.argv.slice(2).reduce((a, x, i, xs) => (x.startsWith('--') ? [...a, [x.slice(2), xs[i + 1]]] : a), []));
const DIST = args.dist ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'dist');
const im = (p) => import(path.join(DIST, p));
const { generateTruthPanel, precision, spearmanByPosition } = await im('bench/learning.js');
const { nextRound, RULE_PARTS, twoPartTruth, rulePart } = await im('bench/learning-policies.js');
const { openDatabase } = await im('compose/database.js');
const { ingestRuns } = await im('ingest/ingest.js');
const { ingestedMonths } = await im('ingest/stores.js');
const { loadSnapshots } = await im('accounts/snapshots.js');
const model = await im('accounts/model.js');
const fitm = await im('accounts/fit.js');
const inm = await im('accounts/in-market.js');
const NOW = new Date('2026-11-01T00:00:00Z');
const CACHE = args.cache ?? path.join(os.tmpdir(), 'storelens-learning-replay');
await mkdir(CACHE, { recursive: true });

async function panelOf(seed) {
  const f = path.join(CACHE, `seed-${seed}.json`);
  try { await access(f); return JSON.parse(await readFile(f, 'utf8')); } catch {}
  const dir = await mkdtemp(path.join(os.tmpdir(), `h33-learning-${seed}-`));
  try {
    const tp = await generateTruthPanel(dir, { stores: 3600, from: '2026-06', to: '2026-10', seed: `learning-${seed}` });
    const db = await openDatabase({ dbPath: path.join(dir, 'api.db') });
    await ingestRuns(db, tp.runs, { now: () => NOW });
    const months = await ingestedMonths(db.kysely);
    const latest = months[months.length - 1].month;
    const stores = await loadSnapshots(db.kysely, latest);
    await db.close();
    const out = { latest, stores, truth: [...tp.truth] };
    await writeFile(f, JSON.stringify(out));
    return out;
  } finally { await rm(dir, { recursive: true, force: true }); }
}
const draw = (seed, id) => createHash('sha256').update(`${seed}\0${id}`).digest().readUInt32LE(0) / 2 ** 32;
const byScoreRows = (rows) => [...rows].sort((a, b) => b.score - a.score || (a.store_id < b.store_id ? -1 : 1));
const C = Number(args.c ?? 10);
const SCALE = args.scale ?? 'pq';
const FIRST = Number(args.first ?? 0.25);
const POOL = 400, BEST = 50, CANDIDATES = 50;
// Σx for a row's terms, and xᵀ(Σx) for another row's.
const covTimes = (cov, d, m, k) => {
  const v = new Float64Array(d);
  for (let t = m.start[k]; t < m.start[k + 1]; t++) {
    const row = m.input[t] * d, x = m.value[t];
    for (let j = 0; j < d; j++) v[j] += x * cov[row + j];
  }
  return v;
};
const dot = (m, k, v) => { let s = 0; for (let t = m.start[k]; t < m.start[k + 1]; t++) s += m.value[t] * v[m.input[t]]; return s; };
const bestSum = (xs) => { const s = Float64Array.from(xs).sort(); let out = 0; for (let i = s.length - 1, n = 0; i >= 0 && n < BEST; i--, n++) out += s[i]; return out; };
// The round's rows: `fixed` (the explore rows, fantasised first), then `want` more from `cands` (row indices, best score first).
function kgRound({ cov, logit, matrix, pool, cands, fixed, want, trade }) {
  const d = Math.round(Math.sqrt(cov.length));
  const S = Float64Array.from(cov);
  const taken = new Set(fixed);
  const fantasise = (k) => {
    const p = model.sigmoid(logit[k]); const w = p * (1 - p);
    const v = covTimes(S, d, matrix, k); const s = dot(matrix, k, v); const f = w / (1 + w * s);
    for (let a = 0; a < d; a++) { const va = v[a] * f; if (va === 0) continue; const row = a * d; for (let b = 0; b < d; b++) S[row + b] -= va * v[b]; }
  };
  for (const k of fixed) fantasise(k);
  const picks = [];
  while (picks.length < want) {
    const open = pool.filter((k) => !taken.has(k));
    let best = -1, bestValue = -Infinity;
    for (const x of cands) {
      if (taken.has(x)) continue;
      const p = model.sigmoid(logit[x]);
      let value = p;
      if (trade > 0) {
        const v = covTimes(S, d, matrix, x); const s = dot(matrix, x, v); const den = 1 + p * (1 - p) * s;
        const rest = open.filter((k) => k !== x);
        const cross = rest.map((k) => dot(matrix, k, v) / den);
        const now = bestSum(rest.map((k) => model.sigmoid(logit[k])));
        const won = bestSum(rest.map((k, i) => model.sigmoid(logit[k] + cross[i] * (1 - p))));
        const lost = bestSum(rest.map((k, i) => model.sigmoid(logit[k] - cross[i] * p)));
        value += trade * (p * won + (1 - p) * lost - now);
      }
      if (value > bestValue) (bestValue = value), (best = x);
    }
    if (best < 0) break;
    picks.push(best); taken.add(best); fantasise(best);
  }
  return picks;
}
const RULES = (args.rules ?? 'generator truth,two-part rule,new-channel rule,plan rule').split(',');
const ARMS = (args.arms ?? 'explore first|mostly top').split('|');
const [s0, s1] = (args.seeds ?? '1-10').split('-').map(Number);
const rounds = 8;
const results = [];
for (let seed = s0; seed <= (s1 ?? s0); seed++) {
  const p = await panelOf(seed);
  const { latest, stores } = p;
  const space = model.inputSpace(stores, latest);
  const matrix = model.termMatrix(space, stores);
  const ids = stores.map((s) => s.store_id);
  const indexOf = new Map(ids.map((id, k) => [id, k]));
  const eligible = Uint8Array.from(stores, (s) => (inm.canBeInMarket(s, latest) ? 1 : 0));
  const holdable = new Set(stores.filter((s) => inm.canBeInMarket(s, latest)).map((s) => s.store_id));
  for (const rule of RULES) {
    const parts = rule === 'generator truth' ? undefined : RULE_PARTS[rule];
    const truth = parts === undefined ? new Map(p.truth) : twoPartTruth(stores, latest, parts);
    for (const arm of ARMS) {
      const byScore = arm.endsWith(', by score');
      const kgArm = arm.endsWith(', kg');
      const every = byScore ? 0 : inm.EXPLORE_EVERY;
      const policy = byScore ? arm.slice(0, -', by score'.length) : kgArm ? arm.slice(0, -', kg'.length) : arm;
      const labels = [];
      const labelledSet = new Set();
      const rank = () => {
        const m = fitm.fitModel(space, labels.map((l) => ({ terms: model.termsAt(matrix, indexOf.get(l.id)), y: l.y, weight: 1 })));
        const logit = model.logitsOf(m.weights, matrix);
        const cov = fitm.posteriorCovariance(m);
        const sd = fitm.logitSds(cov, matrix);
        const score = Float64Array.from(logit, model.sigmoid);
        const labelled = new Uint8Array(ids.length);
        for (const l of labels) labelled[indexOf.get(l.id)] = 1;
        const byScore = inm.scoreOrder(score);
        // As accounts/refresh.ts picks and orders the list (cov is there for a pick that reads the posterior).
        const list = inm.selectInMarketColumns({ score, logit, sd, eligible, labelled }, byScore, inm.EXPLORE_SHARE);
        const order = inm.listOrder(labelled, byScore, list, every);
        const all = Array.from(order, (k) => ({ store_id: ids[k], score: score[k], in_market: list.inMarket[k], explore: list.explore[k] }));
        return { all, answered: all.filter((r) => r.in_market), cov, logit, score, sd, byScore };
      };
      let ranked = rank();
      let { all, answered } = ranked;
      const asRead = () => [...answered, ...all.filter((r) => !r.in_market)];
      const measure = () => precision(asRead(), truth, labelledSet, 50, holdable).ep;
      const rho = spearmanByPosition(answered.filter((r) => r.explore === 0));
      const listed = [measure()];
      const scored = [];
      let wins = 0, reordered = 0;
      const trades = [];
      const diag = [];
      const roundWins = [];
      for (let round = 1; round <= rounds; round++) {
        const read = asRead();
        let picked = nextRound(policy, read, labelledSet);
        if (kgArm) {
          const explore = read.filter((r) => r.in_market && r.explore && !labelledSet.has(r.store_id)).slice(0, 5).map((r) => indexOf.get(r.store_id));
          const ex = new Set(explore);
          const cands = read.filter((r) => r.in_market && !r.explore && !labelledSet.has(r.store_id)).slice(0, CANDIDATES).map((r) => indexOf.get(r.store_id));
          const pool = [];
          for (const k of ranked.byScore) { if (pool.length >= POOL) break; if (eligible[k] && !labelledSet.has(ids[k]) && !ex.has(k)) pool.push(k); }
          const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
          const pq = mean(cands.map((k) => ranked.score[k] * (1 - ranked.score[k])));
          const sdTop = mean(cands.map((k) => ranked.sd[k]));
          // The fit's own outcomes: the mean squared residual (Brier) of the worked accounts at today's chances.
          const brier = labels.length ? mean(labels.map((l) => (l.y - ranked.score[indexOf.get(l.id)]) ** 2)) : FIRST;
          const measure = { pq, pq2: pq * pq, sd: sdTop, brier, brier2: brier * brier, one: 1 }[SCALE];
          const trade = C * measure;
          trades.push(trade);
          diag.push(`${pq.toFixed(3)}/${sdTop.toFixed(2)}/${brier.toFixed(3)}`);
          const rest = kgRound({ cov: ranked.cov, logit: ranked.logit, matrix, pool, cands, fixed: explore, want: 25 - explore.length, trade });
          picked = [...explore, ...rest].map((k) => ids[k]);
        }
        const same = new Set(nextRound(policy, [...byScoreRows(answered), ...all.filter((r) => !r.in_market)], labelledSet));
        if (picked.some((id) => !same.has(id))) reordered++;
        roundWins.push(picked.filter((id) => draw(seed, id) < (truth.get(id) ?? 0)).length);
        for (const id of picked) {
          const won = draw(seed, id) < (truth.get(id) ?? 0);
          wins += won ? 1 : 0;
          labels.push({ id, y: won ? 1 : 0 });
          labelledSet.add(id);
        }
        ranked = rank();
        ({ all, answered } = ranked);
        listed.push(measure());
      }
      const ep = precision(byScoreRows(all), truth, labelledSet).ep;
      const worked = parts ? parts.map((_, k) => `${[...labelledSet].filter((id) => rulePart(stores[indexOf.get(id)], parts) === k).length}/${stores.filter((s) => s.month === latest && rulePart(s, parts) === k).length}`).join(',') : '';
      results.push({ seed, rule, arm, listed: listed[rounds], ep, wins, rho, reordered });
      console.log(`seed ${seed} ${rule} | ${arm}: listed ${listed.map((x) => x.toFixed(2)).join(' ')} | by score ${ep.toFixed(2)} | wins ${wins} | rho ${rho.toFixed(2)} | reord ${reordered} ${worked}${kgArm ? ` | round wins ${roundWins.join(' ')} | trade ${trades.map((t) => t.toFixed(1)).join(' ')} | pq/sd/brier ${diag.join(' ')}` : ''}`);
    }
  }
}
const T95 = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23];
console.log('\nrule | arm | listed mean [95%] (worst) | by score | wins | rho min');
for (const rule of RULES) for (const arm of ARMS) {
  const rs = results.filter((r) => r.rule === rule && r.arm === arm);
  const xs = rs.map((r) => r.listed); const n = xs.length; const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sdv = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0; const h = n > 1 ? (T95[Math.min(n - 1, 10) - 1] * sdv) / Math.sqrt(n) : 0;
  const avg = (k) => rs.reduce((a, r) => a + r[k], 0) / n;
  console.log(`${rule} | ${arm} | ${mean.toFixed(2)} [${(mean - h).toFixed(2)}–${(mean + h).toFixed(2)}] (${Math.min(...xs).toFixed(2)}) | ${avg('ep').toFixed(2)} | ${avg('wins').toFixed(1)} | ${Math.min(...rs.map((r) => r.rho)).toFixed(2)} | seeds ${xs.map((x) => x.toFixed(2)).join(' ')}`);
}
