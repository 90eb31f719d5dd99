import { pearson } from "./pearson.ts";

/** Ranks 1..n, ties sharing their mean rank (the usual convention for Spearman's ρ). */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]?.value === order[i]?.value) j++;
    for (let k = i; k <= j; k++) out[order[k]?.index ?? 0] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

/** Spearman's rank correlation: Pearson's r of the ranks; null when either side has no variance. */
export function spearman(a: readonly number[], b: readonly number[]): number | null {
  return pearson(ranks(a), ranks(b));
}
