import type { SplitPart } from "../numeric/random-split.ts";

/**
 * MoleculeNet's scaffold split (Wu et al., Chem. Sci. 2018, 9, 513; the rule of
 * scripts/scaffold-split.py, which native RDKit runs for the ADMET data): the members are grouped
 * by scaffold, groups go largest first into train until `train` of the members, then valid until
 * `train + valid`, the rest to test. Ties: the group whose first member comes later goes first
 * (DeepChem's order). `keys[i]` is member i's scaffold; the answer is member i's part.
 */
export function scaffoldSplitParts(keys: readonly string[], train = 0.8, valid = 0.1): SplitPart[] {
  const groups = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [i]);
    else group.push(i);
  });
  const ordered = [...groups.values()].sort((a, b) => b.length - a.length || (b[0] ?? 0) - (a[0] ?? 0));
  const parts = new Array<SplitPart>(keys.length).fill("test");
  const count = { train: 0, valid: 0 };
  const trainCut = train * keys.length;
  const validCut = (train + valid) * keys.length;
  for (const group of ordered) {
    let part: SplitPart = "test";
    if (count.train + group.length <= trainCut) part = "train";
    else if (count.train + count.valid + group.length <= validCut) part = "valid";
    if (part !== "test") count[part] += group.length;
    for (const i of group) parts[i] = part;
  }
  return parts;
}
