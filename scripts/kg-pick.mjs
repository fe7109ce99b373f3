// The knowledge-gradient pick tried for issue 33 (2026-12-02; docs/measurements/learning.md, "A
// knowledge-gradient trade scaled…"), for scripts/learning-replay.mjs's arm "mostly top, kg": the
// round's five explore rows as today, then its 20 other rows taken greedily from the list's best 50
// without an outcome by chance + trade × knowledge gradient, each pick's outcome fantasised (the
// explore rows' outcomes first). The knowledge gradient of one outcome of account x (p = σ(xᵀw),
// Laplace posterior w, Σ): every account k's logit moves by (x_kᵀ Σ x)(y − p) / (1 + p(1 − p) xᵀΣx);
// its value is the expected sum of the chances of the best 50 (among the 400 best-scored eligible
// accounts without an outcome, x and the round's picks left out) over y ∈ {0, 1}, less that sum now.
// A pick updates Σ by rank one (Fisher weight p(1 − p)); the mode is kept. The trade is --c times a
// measure of the workspace's spread (--scale):
//   pq     mean p(1 − p) over the list's best 50 without an outcome (the candidates); pq2 squared
//   one    c itself (the first trial's constant trade)
//   sd     the mean posterior sd of the candidates' logits
//   brier  the mean squared residual (y − p)² of the accounts worked so far at today's chances
//          (--first before any outcome, 0.25 unless told); brier2 the same, squared
// A --c, --scale or --first mistyped is refused: its trade, NaN, would pick as "mostly top" does.
const SCALES = ['pq', 'pq2', 'one', 'sd', 'brier', 'brier2'];
export function kgOptions(args) {
  const options = { c: Number(args.c ?? 10), scale: args.scale ?? 'pq', first: Number(args.first ?? 0.25) };
  for (const name of ['c', 'first']) if (!Number.isFinite(options[name])) throw new Error(`--${name} ${args[name]}: not a number`);
  if (!SCALES.includes(options.scale)) throw new Error(`--scale ${options.scale}: one of ${SCALES.join(', ')}`);
  return options;
}
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
function kgRound(model, { cov, logit, matrix, pool, cands, fixed, want, trade }) {
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

/**
 * A round of "mostly top, kg": the ids the agency works (`read` is the list as answered, `ranked`
 * the refresh's posterior), the trade and the measures it was read from.
 */
export function kgPicks({ model, read, ranked, labels, labelledSet, indexOf, ids, eligible, matrix, options }) {
  const explore = read.filter((r) => r.in_market && r.explore && !labelledSet.has(r.store_id)).slice(0, 5).map((r) => indexOf.get(r.store_id));
  const ex = new Set(explore);
  const cands = read.filter((r) => r.in_market && !r.explore && !labelledSet.has(r.store_id)).slice(0, CANDIDATES).map((r) => indexOf.get(r.store_id));
  const pool = [];
  for (const k of ranked.byScore) { if (pool.length >= POOL) break; if (eligible[k] && !labelledSet.has(ids[k]) && !ex.has(k)) pool.push(k); }
  const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  const pq = mean(cands.map((k) => ranked.score[k] * (1 - ranked.score[k])));
  const sdTop = mean(cands.map((k) => ranked.sd[k]));
  // The fit's own outcomes: the mean squared residual (Brier) of the worked accounts at today's chances.
  const brier = labels.length ? mean(labels.map((l) => (l.y - ranked.score[indexOf.get(l.id)]) ** 2)) : options.first;
  const trade = options.c * { pq, pq2: pq * pq, sd: sdTop, brier, brier2: brier * brier, one: 1 }[options.scale];
  const rest = kgRound(model, { cov: ranked.cov, logit: ranked.logit, matrix, pool, cands, fixed: explore, want: 25 - explore.length, trade });
  return { picked: [...explore, ...rest].map((k) => ids[k]), trade, measures: `${pq.toFixed(3)}/${sdTop.toFixed(2)}/${brier.toFixed(3)}` };
}
