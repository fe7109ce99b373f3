/**
 * Feasible intervals of one metric's hidden cells in one breakdown and month, in closed form.
 * The system is small and always the same shape: the hidden cells' n add up to what the
 * published total leaves (R_n), their numerators to R_num, each n lies in a box (from the store
 * counts' intervals), and each numerator lies between `perStore.lo × n` and `perStore.hi × n`
 * (a share's numerator between 0 and n). Its bounds are exact, so no LP solver is needed here;
 * test/stats/intervals.test.ts checks them against HiGHS.
 */

export interface MetricCells {
  /** what the hidden cells' n add up to; null when the total n is not published */
  nResidual: number | null;
  /** what the hidden cells' numerators add up to; null when the total is not published */
  numResidual: number | null;
  /** per hidden cell: the box its n lies in */
  nBox: Array<[number, number]>;
  /** each store's contribution to the numerator: [0, 1] for counts and shares */
  perStore: [number, number];
}

export interface CellIntervals {
  n: [number, number];
  num: [number, number];
}

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

export function metricIntervals(m: MetricCells): CellIntervals[] {
  const k = m.nBox.length;
  const loN = m.nBox.map(([a]) => a);
  const hiN = m.nBox.map(([, b]) => b);
  const totalLo = sum(loN);
  const totalHi = sum(hiN);
  const [vlo, vhi] = m.perStore;
  return m.nBox.map(([a, b], c) => {
    const othersLo = totalLo - a;
    const othersHi = totalHi - b;
    const n: [number, number] = m.nResidual === null ? [a, b] : [Math.max(a, m.nResidual - othersHi), Math.min(b, m.nResidual - othersLo)];
    // A numerator spans [vlo·n, vhi·n] (0 × ∞ counts as 0: no stores, no sum).
    const times = (v: number, x: number) => (x === 0 ? 0 : v * x);
    const own: [number, number] = [Math.min(times(vlo, n[0]), times(vlo, n[1])), Math.max(times(vhi, n[0]), times(vhi, n[1]))];
    if (m.numResidual === null || k === 0) return { n, num: own };
    // The others' numerators span [vlo·N, vhi·N] over their n total N, which is R_n − n_c when
    // R_n is published, else anywhere in their boxes.
    const othersN: [number, number] = m.nResidual === null ? [othersLo, othersHi] : [Math.max(othersLo, m.nResidual - n[1]), Math.min(othersHi, m.nResidual - n[0])];
    const othersNum: [number, number] = [Math.min(times(vlo, othersN[0]), times(vlo, othersN[1])), Math.max(times(vhi, othersN[0]), times(vhi, othersN[1]))];
    const num: [number, number] = [Math.max(own[0], m.numResidual - othersNum[1]), Math.min(own[1], m.numResidual - othersNum[0])];
    // n holds at least the numerator's stores (for counts and shares: num ≤ n).
    if (vhi <= 1 && vlo >= 0) n[0] = Math.max(n[0], num[0]);
    return { n, num };
  });
}
