// The learning benchmark's loop in memory (src/bench/learning.ts simulateLearning): the same
// panel (generated, published and ingested once per seed, its snapshots kept in a cache folder),
// the same model, list and policy code from dist/, the same outcome draws and rounds, without the
// REST round trips and the database writes. For trying ideas on the list fast; the published
// figures come from `storelens bench --only learning`, which this matches arm for arm (checked on
// seed 1: explore first and mostly the top under the generator's truth, every round's P@50 and the
// wins). `npm run build` first.
//   node scripts/learning-replay.mjs --seeds 1-10 [--rules "plan rule,two-part rule"]
//     [--arms "explore first|mostly top|explore first, by score|mostly top, by score|mostly top, kg"]
//     [--c 1000 --scale brier2 --first 0 (the arm "mostly top, kg": scripts/kg-pick.mjs)]
//     [--cache DIR (default: the system's temp folder)]
// Prints each arm's P@50 in the list's order after every round, P@50 by score, the wins, ρ before
// any outcome, the rounds the list by score would have worked otherwise, and a summary per arm.
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
const { kgOptions, kgPicks } = await import('./kg-pick.mjs');
const KG = kgOptions(args);
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
      const policy = byScore || kgArm ? arm.slice(0, arm.lastIndexOf(', ')) : arm;
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
      const kgRounds = [];
      for (let round = 1; round <= rounds; round++) {
        const read = asRead();
        let picked = nextRound(policy, read, labelledSet);
        if (kgArm) {
          const kg = kgPicks({ model, read, ranked, labels, labelledSet, indexOf, ids, eligible, matrix, options: KG });
          picked = kg.picked;
          kgRounds.push({ wins: picked.filter((id) => draw(seed, id) < (truth.get(id) ?? 0)).length, trade: kg.trade, measures: kg.measures });
        }
        const same = new Set(nextRound(policy, [...byScoreRows(answered), ...all.filter((r) => !r.in_market)], labelledSet));
        if (picked.some((id) => !same.has(id))) reordered++;
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
      console.log(`seed ${seed} ${rule} | ${arm}: listed ${listed.map((x) => x.toFixed(2)).join(' ')} | by score ${ep.toFixed(2)} | wins ${wins} | rho ${rho.toFixed(2)} | reord ${reordered} ${worked}${kgArm ? ` | round wins ${kgRounds.map((r) => r.wins).join(' ')} | trade ${kgRounds.map((r) => r.trade.toFixed(1)).join(' ')} | pq/sd/brier ${kgRounds.map((r) => r.measures).join(' ')}` : ''}`);
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
