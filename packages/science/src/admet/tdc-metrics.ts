import { rocAuc } from "../fingerprint/roc-auc.ts";
import { binaryScores } from "../numeric/binary-scores.ts";
import type { ClassifierFigures, RegressorFigures } from "./tdc-model-file.ts";

const round = (v: number) => Number(v.toPrecision(6));

/** Average precision (area under the precision–recall curve, step-wise; Davis & Goadrich, ICML 2006). */
export function averagePrecision(scores: readonly number[], labels: readonly (0 | 1)[]): number {
  const order = scores.map((s, i) => ({ s, y: labels[i] ?? 0 })).sort((a, b) => b.s - a.s);
  const positives = order.filter((o) => o.y === 1).length;
  if (positives === 0) return Number.NaN;
  let tp = 0;
  let seen = 0;
  let sum = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    let tiedPositives = 0;
    while (j < order.length && order[j]?.s === order[i]?.s) {
      if (order[j]?.y === 1) tiedPositives++;
      j++;
    }
    tp += tiedPositives;
    seen = j;
    sum += tiedPositives * (tp / seen);
    i = j;
  }
  return sum / positives;
}

/** Expected calibration error over `bins` equal-width probability bins (Naeini, Cooper & Hauskrecht, AAAI 2015). */
export function expectedCalibrationError(
  p: readonly number[],
  labels: readonly (0 | 1)[],
  bins = 10,
): number {
  const count = new Array<number>(bins).fill(0);
  const mean = new Array<number>(bins).fill(0);
  const hits = new Array<number>(bins).fill(0);
  p.forEach((v, i) => {
    const b = Math.min(bins - 1, Math.floor(v * bins));
    count[b] = (count[b] ?? 0) + 1;
    mean[b] = (mean[b] ?? 0) + v;
    hits[b] = (hits[b] ?? 0) + (labels[i] ?? 0);
  });
  let e = 0;
  for (let b = 0; b < bins; b++) {
    const n = count[b] ?? 0;
    if (n > 0) e += (n / p.length) * Math.abs((hits[b] ?? 0) / n - (mean[b] ?? 0) / n);
  }
  return e;
}

export function classifierFigures(
  p: readonly number[],
  labels: readonly (0 | 1)[],
  threshold: number,
): ClassifierFigures {
  return {
    auroc: round(rocAuc(p, labels)),
    auprc: round(averagePrecision(p, labels)),
    mcc: round(
      binaryScores(
        p.map((v) => v >= threshold),
        labels.map((y) => y === 1),
      ).mcc,
    ),
    ece: round(expectedCalibrationError(p, labels)),
    brier: round(p.reduce((s, v, i) => s + (v - (labels[i] ?? 0)) ** 2, 0) / p.length),
  };
}

export function regressorFigures(
  predicted: readonly number[],
  observed: readonly number[],
): RegressorFigures {
  const n = observed.length;
  const mean = observed.reduce((a, b) => a + b, 0) / n;
  let sse = 0;
  let sae = 0;
  let sst = 0;
  predicted.forEach((v, i) => {
    const o = observed[i] ?? 0;
    sse += (o - v) ** 2;
    sae += Math.abs(o - v);
    sst += (o - mean) ** 2;
  });
  return { rmse: round(Math.sqrt(sse / n)), mae: round(sae / n), r2: round(1 - sse / sst) };
}

/** AUROC − 1.96·SE with Hanley & McNeil's standard error (Radiology 1982, 143, 29). */
export function aurocLowerBound(auc: number, labels: readonly (0 | 1)[]): number {
  const np = labels.filter((y) => y === 1).length;
  const nn = labels.length - np;
  const q1 = auc / (2 - auc);
  const q2 = (2 * auc * auc) / (1 + auc);
  const variance = (auc * (1 - auc) + (np - 1) * (q1 - auc * auc) + (nn - 1) * (q2 - auc * auc)) / (np * nn);
  return auc - 1.96 * Math.sqrt(Math.max(0, variance));
}

/**
 * Platt scaling (Platt 1999, in Advances in Large Margin Classifiers; with Lin, Lin & Weng's 2007
 * smoothed targets): a, b minimising the log-loss of σ(a·z + b) on held-out logits z, by Newton's method.
 */
export function plattFit(z: readonly number[], labels: readonly (0 | 1)[]): { a: number; b: number } {
  const np = labels.filter((y) => y === 1).length;
  const nn = labels.length - np;
  const hi = (np + 1) / (np + 2);
  const lo = 1 / (nn + 2);
  const t = labels.map((y) => (y === 1 ? hi : lo));
  let a = 1;
  let b = 0;
  for (let it = 0; it < 100; it++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    z.forEach((zi, i) => {
      const p = 1 / (1 + Math.exp(-(a * zi + b)));
      const d = p - (t[i] ?? 0);
      const w = p * (1 - p);
      ga += d * zi;
      gb += d;
      haa += w * zi * zi;
      hab += w * zi;
      hbb += w;
    });
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) < 1e-10 && Math.abs(db) < 1e-10) break;
  }
  return { a, b };
}
