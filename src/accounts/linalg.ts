/**
 * The dense linear algebra of the account model (accounts/fit.ts): a Cholesky factor of the
 * posterior precision, the solves Newton's method and posterior draws need, a standard normal draw.
 */

/** Cholesky factor of a symmetric positive-definite matrix given by its lower triangle. */
export function cholesky(a: Float64Array, d: number): Float64Array {
  const l = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * d + j];
      for (let k = 0; k < j; k++) s -= l[i * d + k] * l[j * d + k];
      l[i * d + j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / l[j * d + j];
    }
  }
  return l;
}

/** Solves L Lᵀ x = b. */
export function solveCholesky(l: Float64Array, d: number, b: Float64Array): Float64Array {
  const y = new Float64Array(d);
  for (let i = 0; i < d; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * d + k] * y[k];
    y[i] = s / l[i * d + i];
  }
  return backSubstituteTransposed(l, d, y);
}

/** Solves Lᵀ x = y. */
export function backSubstituteTransposed(l: Float64Array, d: number, y: Float64Array): Float64Array {
  const x = new Float64Array(d);
  for (let i = d - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < d; k++) s -= l[k * d + i] * x[k];
    x[i] = s / l[i * d + i];
  }
  return x;
}
