import type { Mol, RDKit } from "../rdkit.ts";
import { parseMatches } from "../substructure/screened-query.ts";

/** The size at or above which a ring is a macrocycle (Marsault & Peterson, J. Med. Chem. 2011, 54, 1961). */
export const MACROCYCLE_MIN_RING = 12;

interface Queries {
  readonly ringBond: Mol;
  readonly macrocycleAtom: Mol;
}

const compiled = new WeakMap<RDKit, Queries>();

function queries(rdkit: RDKit): Queries {
  let found = compiled.get(rdkit);
  if (found === undefined) {
    const ringBond = rdkit.get_qmol("*@*");
    // r{12-}: the atom's smallest ring (RDKit's ring perception) has at least 12 members.
    const macrocycleAtom = rdkit.get_qmol(`[r{${MACROCYCLE_MIN_RING}-}]`);
    if (ringBond === null || macrocycleAtom === null) throw new Error("ring queries do not parse");
    found = { ringBond, macrocycleAtom };
    compiled.set(rdkit, found);
  }
  return found;
}

/**
 * Ring systems (rings sharing at least one atom merged, so fused, bridged and spiro rings form one
 * system) as atom sets, from the ring bonds RDKit perceives, and how many of them hold a macrocycle.
 */
export function ringSystems(rdkit: RDKit, mol: Mol): { systems: number[][]; macrocycles: number } {
  const { ringBond, macrocycleAtom } = queries(rdkit);
  const parent = new Map<number, number>();
  const find = (a: number): number => {
    let root = a;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    return root;
  };
  for (const [a, b] of parseMatches(mol.get_substruct_matches(ringBond))) {
    if (a === undefined || b === undefined) continue;
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    parent.set(find(a), find(b));
  }
  const groups = new Map<number, number[]>();
  for (const atom of parent.keys()) groups.set(find(atom), [...(groups.get(find(atom)) ?? []), atom]);
  const systems = [...groups.values()]
    .map((atoms) => atoms.sort((x, y) => x - y))
    .sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0));
  const macroAtoms = new Set(parseMatches(mol.get_substruct_matches(macrocycleAtom)).flat());
  return {
    systems,
    macrocycles: systems.filter((atoms) => atoms.some((atom) => macroAtoms.has(atom))).length,
  };
}
