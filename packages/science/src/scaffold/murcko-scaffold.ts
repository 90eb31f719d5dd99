import type { Mol, RDKit } from "../rdkit.ts";
import { molJson, type RDKitJson, rdkitExtensionOf } from "../rdkit-json.ts";
import { ScienceError } from "../science-error.ts";

/**
 * Bemis & Murcko scaffold (J. Med. Chem. 1996, 39, 2887): the ring systems of a molecule and the
 * linker atoms joining them, side chains removed. RDKit WebAssembly has no Murcko function, so the
 * scaffold is computed here from the molecule graph RDKit describes (`mol.get_json()`), following
 * the rules of RDKit's `MurckoDecompose` (the reference the tests compare with):
 * - ring atoms are kept, and every atom on a path between two ring atoms (a linker);
 * - an atom double-bonded to a kept atom is kept too (exocyclic C=O, S(=O)=O, C=C), without its
 *   own substituents;
 * - a kept atom that loses a substituent gets hydrogens instead: one on an aromatic heteroatom or
 *   aromatic carbocation, else as many as RDKit's valence model gives ({@link implicitHydrogens}).
 * The scaffold molecule is rebuilt by RDKit from that graph (sanitized, no stereo, no isotopes, as
 * `MurckoScaffoldSmiles` writes it) and returned as RDKit's canonical SMILES; "" for a molecule
 * without rings.
 */
export function murckoScaffoldSmiles(rdkit: RDKit, mol: Mol): string {
  const json = scaffoldJson(molJson(mol));
  if (json === null) return "";
  const scaffold = rdkit.get_mol(json);
  try {
    if (scaffold === null || !scaffold.is_valid())
      throw new ScaffoldError("RDKit refused the scaffold graph");
    return scaffold.get_smiles();
  } finally {
    scaffold?.delete();
  }
}

/** The scaffold graph could not be rebuilt (an unusual valence); the compound gets no scaffold. */
export class ScaffoldError extends ScienceError<"SCAFFOLD_UNBUILDABLE"> {
  constructor(message: string) {
    super("SCAFFOLD_UNBUILDABLE", message);
  }
}

/**
 * The scaffold as an RDKit JSON document (Kekulé bond orders, explicit hydrogen counts), or null
 * when nothing is left (no ring). Pure: exported for the tests.
 */
export function scaffoldJson(doc: RDKitJson): string | null {
  const molecule = doc.molecules?.[0] ?? {};
  const atomDefaults = { z: 6, impHs: 0, chg: 0, ...doc.defaults?.atom };
  const bondDefaults = { bo: 1, ...doc.defaults?.bond };
  const extension = rdkitExtensionOf(molecule);
  const atoms = (molecule.atoms ?? []).map((raw) => ({ ...atomDefaults, ...raw }));
  const aromaticAtom = new Set(extension?.aromaticAtoms ?? []);
  const aromaticBond = new Set(extension?.aromaticBonds ?? []);
  const bonds = (molecule.bonds ?? []).map((raw, index) => {
    const bond = { ...bondDefaults, ...raw };
    const [begin = -1, end = -1] = bond.atoms ?? [];
    return { begin, end, order: bond.bo, aromatic: aromaticBond.has(index) };
  });
  const n = atoms.length;
  const neighbours: { atom: number; bond: number }[][] = atoms.map(() => []);
  bonds.forEach((bond, index) => {
    neighbours[bond.begin]?.push({ atom: bond.end, bond: index });
    neighbours[bond.end]?.push({ atom: bond.begin, bond: index });
  });

  // Ring atoms, then linkers: prune non-ring atoms of degree ≤ 1 until none is left. What remains
  // lies on a path between two ring atoms, which is what MurckoDecompose's shortest paths mark.
  const inRing = new Array<boolean>(n).fill(false);
  for (const ring of extension?.atomRings ?? []) for (const atom of ring) inRing[atom] = true;
  if (!inRing.includes(true)) return null;
  const alive = new Array<boolean>(n).fill(true);
  const degree = neighbours.map((list) => list.length);
  const leaves = [...Array(n).keys()].filter((i) => !inRing[i] && (degree[i] ?? 0) <= 1);
  while (leaves.length > 0) {
    const atom = leaves.pop() as number;
    if (!alive[atom]) continue;
    alive[atom] = false;
    for (const { atom: other } of neighbours[atom] ?? []) {
      if (!alive[other]) continue;
      degree[other] = (degree[other] ?? 0) - 1;
      if (!inRing[other] && (degree[other] ?? 0) <= 1) leaves.push(other);
    }
  }
  const core = alive;

  // Exocyclic (and exo-linker) double bonds: the atom stays, its substituents go.
  const kept = [...core];
  for (let i = 0; i < n; i++) {
    if (core[i]) continue;
    const doubleToCore = (neighbours[i] ?? []).some(
      ({ atom, bond }) => core[atom] && bonds[bond]?.order === 2 && !bonds[bond]?.aromatic,
    );
    if (doubleToCore) kept[i] = true;
  }

  // Hydrogens replace the lost bonds.
  const hydrogens = atoms.map((atom) => atom.impHs);
  for (let i = 0; i < n; i++) {
    if (!kept[i]) continue;
    let lost = 0;
    for (const { atom, bond } of neighbours[i] ?? []) if (!kept[atom]) lost += bonds[bond]?.order ?? 1;
    if (lost === 0) continue;
    const atom = atoms[i] as (typeof atoms)[number];
    // An exocyclic atom is not among MurckoDecompose's keepers, so its hydrogens are never reset:
    // a charged one (a bracket atom in SMILES) keeps its count; a neutral one is recomputed.
    if (!core[i] && atom.chg !== 0) continue;
    const aromaticFix = core[i] && aromaticAtom.has(i) && (atom.z !== 6 || atom.chg === 1);
    let valence = 0;
    for (const { atom: other, bond } of neighbours[i] ?? [])
      if (kept[other]) valence += bonds[bond]?.order ?? 1;
    hydrogens[i] = aromaticFix ? 1 : implicitHydrogens(atom.z, atom.chg, valence);
  }

  const index = new Map<number, number>();
  const outAtoms: { z: number; impHs: number; chg: number }[] = [];
  for (let i = 0; i < n; i++) {
    if (!kept[i]) continue;
    index.set(i, outAtoms.length);
    const atom = atoms[i] as (typeof atoms)[number];
    outAtoms.push({ z: atom.z, impHs: hydrogens[i] ?? 0, chg: atom.chg });
  }
  const outBonds = bonds
    .filter((bond) => kept[bond.begin] && kept[bond.end])
    .map((bond) => ({ bo: bond.order, atoms: [index.get(bond.begin), index.get(bond.end)] }));
  return JSON.stringify({
    commonchem: { version: 10 },
    defaults: {
      atom: { z: 6, impHs: 0, chg: 0, nRad: 0, isotope: 0, stereo: "unspecified" },
      bond: { bo: 1, stereo: "unspecified" },
    },
    molecules: [{ atoms: outAtoms, bonds: outBonds }],
  });
}

/**
 * RDKit's default valences of the main-group elements (its periodic table, `atomic_data.cpp`);
 * elements absent here (transition metals, lanthanides) have none and get no implicit hydrogen.
 */
const DEFAULT_VALENCES: ReadonlyMap<number, readonly number[]> = new Map([
  [1, [1]],
  [3, [1]],
  [4, [2]],
  [5, [3]],
  [6, [4]],
  [7, [3]],
  [8, [2]],
  [9, [1]],
  [11, [1]],
  [12, [2]],
  [13, [3]],
  [14, [4]],
  [15, [3, 5, 7]],
  [16, [2, 4, 6]],
  [17, [1]],
  [19, [1]],
  [20, [2]],
  [31, [3]],
  [32, [4]],
  [33, [3, 5, 7]],
  [34, [2, 4, 6]],
  [35, [1]],
  [37, [1]],
  [38, [2]],
  [49, [3]],
  [50, [2, 4]],
  [51, [3, 5, 7]],
  [52, [2, 4, 6]],
  [53, [1, 3, 5]],
  [55, [1]],
  [56, [2]],
  [81, [1, 3]],
  [82, [2, 4]],
  [83, [3, 5]],
  [84, [2, 4, 6]],
]);

/**
 * Implicit hydrogens as RDKit's valence model assigns them to an atom whose explicit H count was
 * reset (what MurckoDecompose does to a kept atom that lost a substituent): a charged atom takes
 * the valences of its isoelectronic element (N+ as C, O+ as N, C− as N), then the smallest
 * allowed valence not below the bond-order sum; no default valence, no hydrogen.
 */
export function implicitHydrogens(atomicNumber: number, charge: number, bondOrderSum: number): number {
  const valences = DEFAULT_VALENCES.get(atomicNumber - charge) ?? DEFAULT_VALENCES.get(atomicNumber);
  if (valences === undefined) return 0;
  const target = valences.find((valence) => valence >= bondOrderSum);
  return target === undefined ? 0 : target - bondOrderSum;
}
