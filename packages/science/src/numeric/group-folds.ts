import { mulberry32 } from "./seeded-shuffle.ts";

/**
 * Assigns items to `k` folds so that items sharing a group key share a fold (grouped k-fold, as
 * scikit-learn's GroupKFold): groups are shuffled by the seed, then placed largest first into the
 * fold with the fewest items so far (ties: the lower fold). A model validated on these folds never
 * sees a held-out item's group in training.
 */
export function assignGroupFolds(keys: readonly string[], k: number, seed: number): number[] {
  const members = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const list = members.get(key);
    if (list) list.push(i);
    else members.set(key, [i]);
  });
  const groups = [...members.values()];
  const random = mulberry32(seed);
  for (let i = groups.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [groups[i], groups[j]] = [groups[j] ?? [], groups[i] ?? []];
  }
  // stable sort: equal sizes keep their shuffled order
  groups.sort((a, b) => b.length - a.length);
  const size = new Array<number>(k).fill(0);
  const fold = new Array<number>(keys.length).fill(0);
  for (const group of groups) {
    let target = 0;
    for (let f = 1; f < k; f++) if ((size[f] ?? 0) < (size[target] ?? 0)) target = f;
    for (const i of group) fold[i] = target;
    size[target] = (size[target] ?? 0) + group.length;
  }
  return fold;
}
