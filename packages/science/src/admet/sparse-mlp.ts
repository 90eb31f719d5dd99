import { sigmoid } from "../fingerprint/logistic-regression.ts";
import { MORGAN_BITS } from "../fingerprint/morgan.ts";
import { mulberry32 } from "../numeric/seeded-shuffle.ts";

/**
 * A one-hidden-layer perceptron on Morgan on-bits plus standardized dense descriptors:
 * h = ReLU(b1 + Σ W1[bit] over on bits + Σ x_j·W1[MORGAN_BITS + j]),  out = b2 + w2·h,
 * read through the logistic function for a classifier and as is for a regressor. The sparse input
 * makes a forward pass cost (on bits + dense columns) × hidden multiply-adds (Rumelhart, Hinton &
 * Williams, Nature 1986, 323, 533; ReLU: Nair & Hinton, ICML 2010).
 */
export interface SparseMlp {
  readonly hidden: number;
  readonly dense: number;
  /** (MORGAN_BITS + dense) × hidden, row-major: row r holds input r's weights to every hidden unit. */
  readonly w1: readonly number[];
  readonly b1: readonly number[];
  readonly w2: readonly number[];
  readonly b2: number;
}

export interface SparseRow {
  readonly bits: readonly number[];
  readonly x: readonly number[];
}

/** The output before the link: a logit for a classifier, the (standardized) value for a regressor. */
export function mlpOutput(
  model: SparseMlp,
  row: SparseRow,
  h: Float64Array = new Float64Array(model.hidden),
): number {
  const H = model.hidden;
  for (let k = 0; k < H; k++) h[k] = model.b1[k] ?? 0;
  for (const bit of row.bits) {
    const at = bit * H;
    for (let k = 0; k < H; k++) h[k] = (h[k] ?? 0) + (model.w1[at + k] ?? 0);
  }
  for (let j = 0; j < model.dense; j++) {
    const v = row.x[j] ?? 0;
    if (v === 0) continue;
    const at = (MORGAN_BITS + j) * H;
    for (let k = 0; k < H; k++) h[k] = (h[k] ?? 0) + v * (model.w1[at + k] ?? 0);
  }
  let out = model.b2;
  for (let k = 0; k < H; k++) {
    const a = h[k] ?? 0;
    if (a > 0) out += a * (model.w2[k] ?? 0);
  }
  return out;
}

export interface MlpOptions {
  readonly task: "classification" | "regression";
  readonly hidden: number;
  readonly dense: number;
  readonly epochs: number;
  readonly batch: number;
  readonly learningRate: number;
  /** Decoupled weight decay per step (Loshchilov & Hutter, ICLR 2019), biases excluded. */
  readonly weightDecay: number;
  readonly seed: number;
}

/**
 * Mini-batch Adam (Kingma & Ba, ICLR 2015) on log-loss or squared error, rows shuffled by a seeded
 * generator, weights from a seeded uniform Glorot initialisation: the same data and seed give the
 * same weights. After each epoch `score` (higher is better, e.g. validation AUROC) is called and
 * the best epoch's weights are returned (early stopping on the validation rows).
 */
export function trainSparseMlp(
  rows: readonly SparseRow[],
  y: readonly number[],
  options: MlpOptions,
  score: (model: SparseMlp) => number,
): { model: SparseMlp; epoch: number; score: number } {
  const { hidden: H, dense: D } = options;
  const inputs = MORGAN_BITS + D;
  const random = mulberry32(options.seed);
  const limit = Math.sqrt(6 / (64 + H));
  const w1 = Float64Array.from({ length: inputs * H }, () => (random() * 2 - 1) * limit);
  const b1 = new Float64Array(H);
  const w2 = Float64Array.from({ length: H }, () => (random() * 2 - 1) * Math.sqrt(6 / (H + 1)));
  const b2 = new Float64Array(1);
  const params = [w1, b1, w2, b2];
  const m = params.map((p) => new Float64Array(p.length));
  const v = params.map((p) => new Float64Array(p.length));
  const g = params.map((p) => new Float64Array(p.length));
  const touched = new Uint8Array(inputs);
  const [beta1, beta2, eps] = [0.9, 0.999, 1e-8];
  const h = new Float64Array(H);
  const dh = new Float64Array(H);
  const order = Array.from({ length: rows.length }, (_, i) => i);
  const snapshot = (): SparseMlp => ({
    hidden: H,
    dense: D,
    w1: Array.from(w1),
    b1: Array.from(b1),
    w2: Array.from(w2),
    b2: b2[0] ?? 0,
  });
  const view: SparseMlp = { hidden: H, dense: D, w1, b1, w2, b2: 0 } as unknown as SparseMlp;
  let best = { model: snapshot(), epoch: 0, score: Number.NEGATIVE_INFINITY };
  let t = 0;
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    for (let start = 0; start < order.length; start += options.batch) {
      const batch = order.slice(start, start + options.batch);
      for (const p of g) p.fill(0);
      touched.fill(0);
      (view as { b2: number }).b2 = b2[0] ?? 0;
      for (const r of batch) {
        const row = rows[r] as SparseRow;
        const out = mlpOutput(view, row, h);
        const target = y[r] ?? 0;
        const dOut =
          (options.task === "classification" ? sigmoid(out) - target : out - target) / batch.length;
        (g[3] as Float64Array)[0] = ((g[3] as Float64Array)[0] ?? 0) + dOut;
        for (let k = 0; k < H; k++) {
          const a = h[k] ?? 0;
          if (a > 0) {
            (g[2] as Float64Array)[k] = ((g[2] as Float64Array)[k] ?? 0) + dOut * a;
            dh[k] = dOut * (w2[k] ?? 0);
          } else dh[k] = 0;
          (g[1] as Float64Array)[k] = ((g[1] as Float64Array)[k] ?? 0) + (dh[k] ?? 0);
        }
        const gw1 = g[0] as Float64Array;
        for (const bit of row.bits) {
          touched[bit] = 1;
          const at = bit * H;
          for (let k = 0; k < H; k++) gw1[at + k] = (gw1[at + k] ?? 0) + (dh[k] ?? 0);
        }
        for (let j = 0; j < D; j++) {
          const xv = row.x[j] ?? 0;
          touched[MORGAN_BITS + j] = 1;
          const at = (MORGAN_BITS + j) * H;
          for (let k = 0; k < H; k++) gw1[at + k] = (gw1[at + k] ?? 0) + xv * (dh[k] ?? 0);
        }
      }
      t++;
      const c1 = 1 - beta1 ** t;
      const c2 = 1 - beta2 ** t;
      params.forEach((p, n) => {
        const gp = g[n] as Float64Array;
        const mp = m[n] as Float64Array;
        const vp = v[n] as Float64Array;
        const decay = n === 0 || n === 2 ? options.weightDecay * options.learningRate : 0;
        for (let e = 0; e < p.length; e++) {
          const gv = gp[e] ?? 0;
          mp[e] = beta1 * (mp[e] ?? 0) + (1 - beta1) * gv;
          vp[e] = beta2 * (vp[e] ?? 0) + (1 - beta2) * gv * gv;
          p[e] =
            (p[e] ?? 0) * (1 - decay) -
            (options.learningRate * ((mp[e] ?? 0) / c1)) / (Math.sqrt((vp[e] ?? 0) / c2) + eps);
        }
      });
    }
    const now = snapshot();
    const s = score(now);
    if (s > best.score) best = { model: now, epoch, score: s };
  }
  return best;
}
