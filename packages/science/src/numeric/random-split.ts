import { mulberry32 } from "./seeded-shuffle.ts";

export type SplitPart = "train" | "valid" | "test";

/**
 * A random train/valid/test split as MoleculeNet's RandomSplitter makes it (Wu et al., Chem. Sci.
 * 2018, 9, 513: 80/10/10 for Tox21 and ClinTox): the rows are shuffled with a seeded Fisher–Yates
 * and cut in that order. Same ratios and kind as MoleculeNet, not its permutation.
 */
export function randomSplit(n: number, seed: number, fractions = { train: 0.8, valid: 0.1 }): SplitPart[] {
  const random = mulberry32(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  const trainEnd = Math.floor(fractions.train * n);
  const validEnd = Math.floor((fractions.train + fractions.valid) * n);
  const part = new Array<SplitPart>(n).fill("test");
  order.forEach((row, position) => {
    part[row] = position < trainEnd ? "train" : position < validEnd ? "valid" : "test";
  });
  return part;
}
