import { choleskyFactor, inverseFromFactor, solveFactored } from "../numeric/cholesky.ts";
import { assignFolds } from "../numeric/seeded-shuffle.ts";

/** How the cross-validation is repeated (every response of one call uses the same folds). */
export interface RepeatedCv {
  /** Folds per repetition (k of k-fold). */
  readonly folds: number;
  /** Repetitions, each with its own seeded fold assignment (seed + repetition). */
  readonly repeats: number;
  readonly seed: number;
  /** Ridge penalty λ (Hoerl & Kennard, Technometrics 1970, 12, 55), in the Gram matrix's units. */
  readonly lambda: number;
}

/**
 * Out-of-fold predictions of a ridge regression with an unpenalised intercept, for several
 * responses at once, by repeated k-fold cross-validation, each fold refitted from scratch: the
 * definition that {@link repeatedCvPredictions} (the fast path the module uses) is tested against.
 *
 * `gram` is K = X Xᵀ of all n rows (n × n, row-major); `responses` holds `columns` responses per
 * row (n × columns, row-major). The ridge fit on a training fold T is solved in its dual form
 * (Saunders, Gammerman & Vovk, ICML 1998): with X centred on T's column means,
 * α = (K̃_TT + λI)⁻¹ (y_T − ȳ_T) and ŷ_s = ȳ_T + K̃_sT α, where K̃ is K centred from K alone
 * (K̃_ab = K_ab − c_a − c_b + g, c the column means over T, g their mean). This is the primal ridge
 * β = (X̃ᵀX̃ + λI)⁻¹ X̃ᵀ ỹ exactly (push-through identity), at the cost of one Cholesky factor per
 * fold shared by every response — which is what makes a hundred y-scrambles cheap.
 *
 * Returns one n × columns array of predictions per repetition.
 */
export function refitCvPredictions(
  gram: Float64Array,
  n: number,
  responses: Float64Array,
  columns: number,
  cv: RepeatedCv,
): Float64Array[] {
  if (gram.length !== n * n) throw new Error("gram matrix is not n × n");
  if (responses.length !== n * columns) throw new Error("responses are not n × columns");
  if (cv.folds < 2 || cv.folds > n) throw new Error(`cannot make ${cv.folds} folds of ${n} rows`);
  if (!(cv.lambda > 0)) throw new Error("ridge penalty must be positive");
  const out: Float64Array[] = [];
  for (let r = 0; r < cv.repeats; r++) {
    const fold = assignFolds(n, cv.folds, cv.seed + r);
    const predicted = new Float64Array(n * columns);
    for (let f = 0; f < cv.folds; f++) {
      const train: number[] = [];
      const test: number[] = [];
      fold.forEach((g, i) => {
        (g === f ? test : train).push(i);
      });
      predictFold(gram, n, responses, columns, train, test, cv.lambda, predicted);
    }
    out.push(predicted);
  }
  return out;
}

/**
 * The same out-of-fold predictions as {@link refitCvPredictions}, from one factorisation of all n
 * rows instead of one per fold. Ridge with an unpenalised intercept b is the bordered system
 * [K + λI, 1; 1ᵀ, 0] [α; b] = [y; 0] (least-squares SVM form, Suykens & Vandewalle, Neural
 * Process. Lett. 1999, 9, 293); with C the α-block of its inverse, C = G − g gᵀ / (1ᵀg),
 * G = (K + λI)⁻¹, g = G1, the residuals of a held-out group S are exactly r_S = (C_SS)⁻¹ (C y)_S
 * (An, Liu & Venkatesh, Pattern Recognit. 2007, 40, 2154; Cawley & Talbot 2004 for one row). C
 * does not depend on the folds or on y, so every repetition and every scramble reuses it: about
 * n³/2 multiply–adds once, then small |S| × |S| solves.
 */
export function repeatedCvPredictions(
  gram: Float64Array,
  n: number,
  responses: Float64Array,
  columns: number,
  cv: RepeatedCv,
): Float64Array[] {
  if (gram.length !== n * n) throw new Error("gram matrix is not n × n");
  if (responses.length !== n * columns) throw new Error("responses are not n × columns");
  if (cv.folds < 2 || cv.folds > n) throw new Error(`cannot make ${cv.folds} folds of ${n} rows`);
  if (!(cv.lambda > 0)) throw new Error("ridge penalty must be positive");
  const a = Float64Array.from(gram);
  for (let i = 0; i < n; i++) a[i * n + i] = (a[i * n + i] as number) + cv.lambda;
  const g = inverseFromFactor(choleskyFactor(a, n), n);
  const gOnes = new Float64Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += g[i * n + j] as number;
    gOnes[i] = sum;
    s += sum;
  }
  // C = G − g gᵀ / s, in place.
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      g[i * n + j] = (g[i * n + j] as number) - ((gOnes[i] as number) * (gOnes[j] as number)) / s;
  const c = g;
  // C y for every response column: the dual coefficients α of the fit on all rows.
  const alpha = new Float64Array(n * columns);
  for (let i = 0; i < n; i++) {
    const at = i * columns;
    for (let k = 0; k < n; k++) {
      const cik = c[i * n + k] as number;
      const yk = k * columns;
      for (let col = 0; col < columns; col++)
        alpha[at + col] = (alpha[at + col] as number) + cik * (responses[yk + col] as number);
    }
  }
  const out: Float64Array[] = [];
  for (let r = 0; r < cv.repeats; r++) {
    const fold = assignFolds(n, cv.folds, cv.seed + r);
    const predicted = new Float64Array(n * columns);
    for (let f = 0; f < cv.folds; f++) {
      const held: number[] = [];
      fold.forEach((group, i) => {
        if (group === f) held.push(i);
      });
      const h = held.length;
      const block = new Float64Array(h * h);
      const rhs = new Float64Array(h * columns);
      held.forEach((row, p) => {
        held.forEach((col, q) => {
          block[p * h + q] = c[row * n + col] as number;
        });
        rhs.set(alpha.subarray(row * columns, (row + 1) * columns), p * columns);
      });
      const residual = solveFactored(choleskyFactor(block, h), h, rhs, columns);
      held.forEach((row, p) => {
        for (let col = 0; col < columns; col++)
          predicted[row * columns + col] =
            (responses[row * columns + col] as number) - (residual[p * columns + col] as number);
      });
    }
    out.push(predicted);
  }
  return out;
}

/** Fits on `train` and writes the predictions of `test` rows into `predicted` (n × columns). */
export function predictFold(
  gram: Float64Array,
  n: number,
  responses: Float64Array,
  columns: number,
  train: readonly number[],
  test: readonly number[],
  lambda: number,
  predicted: Float64Array,
): void {
  const m = train.length;
  // Column means of K over the training rows, and their mean.
  const colMean = new Float64Array(m);
  for (let b = 0; b < m; b++) {
    const tb = train[b] ?? 0;
    let sum = 0;
    for (let a = 0; a < m; a++) sum += gram[(train[a] ?? 0) * n + tb] ?? 0;
    colMean[b] = sum / m;
  }
  let grand = 0;
  for (let b = 0; b < m; b++) grand += (colMean[b] ?? 0) / m;
  const a = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    const row = (train[i] ?? 0) * n;
    for (let j = 0; j <= i; j++) {
      const v = (gram[row + (train[j] ?? 0)] ?? 0) - (colMean[i] ?? 0) - (colMean[j] ?? 0) + grand;
      a[i * m + j] = v;
      a[j * m + i] = v;
    }
    a[i * m + i] = (a[i * m + i] ?? 0) + lambda;
  }
  const yMean = new Float64Array(columns);
  for (const t of train)
    for (let c = 0; c < columns; c++) yMean[c] = (yMean[c] ?? 0) + (responses[t * columns + c] ?? 0) / m;
  const centred = new Float64Array(m * columns);
  train.forEach((t, i) => {
    for (let c = 0; c < columns; c++)
      centred[i * columns + c] = (responses[t * columns + c] ?? 0) - (yMean[c] ?? 0);
  });
  const alpha = solveFactored(choleskyFactor(a, m), m, centred, columns);
  const kernelRow = new Float64Array(m);
  for (const s of test) {
    const row = s * n;
    let rowMean = 0;
    for (let j = 0; j < m; j++) rowMean += (gram[row + (train[j] ?? 0)] ?? 0) / m;
    for (let j = 0; j < m; j++)
      kernelRow[j] = (gram[row + (train[j] ?? 0)] ?? 0) - rowMean - (colMean[j] ?? 0) + grand;
    const at = s * columns;
    for (let c = 0; c < columns; c++) predicted[at + c] = yMean[c] ?? 0;
    for (let j = 0; j < m; j++) {
      const kj = kernelRow[j] ?? 0;
      if (kj === 0) continue;
      const aj = j * columns;
      for (let c = 0; c < columns; c++)
        predicted[at + c] = (predicted[at + c] ?? 0) + kj * (alpha[aj + c] ?? 0);
    }
  }
}

/**
 * Cross-validated q² = 1 − PRESS / Σ(y − ȳ)² (Golbraikh & Tropsha, J. Mol. Graph. Model. 2002, 20,
 * 269), ȳ the mean of all rows; and the RMSE of the same out-of-fold predictions.
 */
export function q2AndRmse(
  observed: ArrayLike<number>,
  predicted: ArrayLike<number>,
): { q2: number; rmse: number } {
  const n = observed.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += (observed[i] ?? 0) / n;
  let press = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    press += ((observed[i] ?? 0) - (predicted[i] ?? 0)) ** 2;
    total += ((observed[i] ?? 0) - mean) ** 2;
  }
  if (total === 0) throw new Error("q² is undefined when every activity is the same");
  return { q2: 1 - press / total, rmse: Math.sqrt(press / n) };
}
