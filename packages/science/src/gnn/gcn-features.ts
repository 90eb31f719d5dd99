import type { Mol } from "../rdkit.ts";
import { molJson, rdkitExtensionOf } from "../rdkit-json.ts";

/**
 * Atom and bond features of gcn_toxicity's graph, read from RDKit WebAssembly's molecule JSON. They
 * must equal `scripts/tox21-gcn-graph.py`'s (native RDKit, the training side) feature for feature:
 * `gcn-parity.validation.test.ts` compares both on NCI molecules. Only facts RDKit states in its JSON are used
 * (element, hydrogens, charge, aromatic atoms and bonds, bond orders, rings), none re-derived here.
 */
export const GCN_ELEMENTS = [6, 7, 8, 9, 15, 16, 17, 35, 53, 5, 14, 34] as const;
const MAX_DEGREE = 5;
const MAX_HS = 4;
export const ATOM_FEATURES = GCN_ELEMENTS.length + 1 + (MAX_DEGREE + 1) + (MAX_HS + 1) + 3 + 2;
export const BOND_FEATURES = 5;

export interface GcnBond {
  readonly begin: number;
  readonly end: number;
  /** single, double, triple, aromatic (one-hot; all zero for other orders), in ring. */
  readonly features: readonly number[];
}

export interface GcnGraph {
  /** One row of {@link ATOM_FEATURES} per atom, in RDKit's atom order. */
  readonly atoms: readonly (readonly number[])[];
  readonly bonds: readonly GcnBond[];
}

/** The graph of a molecule as gcn_toxicity reads it. */
export function gcnGraph(mol: Mol): GcnGraph {
  const doc = molJson(mol);
  const molecule = doc.molecules?.[0] ?? {};
  const atomDefaults = { z: 6, impHs: 0, chg: 0, ...doc.defaults?.atom };
  const bondDefaults = { bo: 1, ...doc.defaults?.bond };
  const extension = rdkitExtensionOf(molecule);
  const aromaticAtoms = new Set(extension?.aromaticAtoms ?? []);
  const aromaticBonds = new Set(extension?.aromaticBonds ?? []);
  const rings = extension?.atomRings ?? [];
  const ringAtoms = new Set(rings.flat());
  // RDKit lists each ring's atoms in ring order, so consecutive members (and last-first) are its bonds;
  // a bond lies on a ring exactly when it lies on one of RDKit's SSSR rings.
  const ringBonds = new Set<string>();
  for (const ring of rings)
    ring.forEach((a, k) => {
      const b = ring[(k + 1) % ring.length] ?? a;
      ringBonds.add(a < b ? `${a}-${b}` : `${b}-${a}`);
    });
  const atoms = (molecule.atoms ?? []).map((raw) => ({ ...atomDefaults, ...raw }));
  const degree = new Array<number>(atoms.length).fill(0);
  const hNeighbours = new Array<number>(atoms.length).fill(0);
  const bonds = (molecule.bonds ?? []).map((raw, index) => {
    const { bo, atoms: ends } = { ...bondDefaults, ...raw };
    const [begin = 0, end = 0] = ends ?? [];
    degree[begin] = (degree[begin] ?? 0) + 1;
    degree[end] = (degree[end] ?? 0) + 1;
    if (atoms[end]?.z === 1) hNeighbours[begin] = (hNeighbours[begin] ?? 0) + 1;
    if (atoms[begin]?.z === 1) hNeighbours[end] = (hNeighbours[end] ?? 0) + 1;
    const features = [0, 0, 0, 0, 0];
    if (aromaticBonds.has(index)) features[3] = 1;
    else if (bo === 1 || bo === 2 || bo === 3) features[bo - 1] = 1;
    features[4] = ringBonds.has(begin < end ? `${begin}-${end}` : `${end}-${begin}`) ? 1 : 0;
    return { begin, end, features };
  });
  return {
    atoms: atoms.map((atom, i) => {
      const row = new Array<number>(ATOM_FEATURES).fill(0);
      const element = (GCN_ELEMENTS as readonly number[]).indexOf(atom.z);
      row[element === -1 ? GCN_ELEMENTS.length : element] = 1;
      let at = GCN_ELEMENTS.length + 1;
      row[at + Math.min(degree[i] ?? 0, MAX_DEGREE)] = 1;
      at += MAX_DEGREE + 1;
      // RDKit's GetTotalNumHs(includeNeighbors=True): the JSON's impHs (implicit + explicit) plus H atoms.
      row[at + Math.min(atom.impHs + (hNeighbours[i] ?? 0), MAX_HS)] = 1;
      at += MAX_HS + 1;
      row[at + (atom.chg < 0 ? 0 : atom.chg === 0 ? 1 : 2)] = 1;
      at += 3;
      row[at] = aromaticAtoms.has(i) ? 1 : 0;
      row[at + 1] = ringAtoms.has(i) ? 1 : 0;
      return row;
    }),
    bonds,
  };
}
