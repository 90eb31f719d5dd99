import { type RDKitJson, rdkitExtensionOf } from "../rdkit-json.ts";

/**
 * The polar surface of sulfur and phosphorus atoms in Ertl's TPSA (Ertl, Rohde & Selzer, J. Med.
 * Chem. 2000, 43, 3714, Table 1), which RDKit adds only when asked (`CalcTPSA(mol,
 * includeSandP=True)`) and RDKit WebAssembly never does: its `tpsa` descriptor is N and O only.
 * BOILED-Egg was fitted on TPSA with polar S and P (Daina & Zoete, ChemMedChem 2016, 11, 1117, as
 * SwissADME computes it), so the egg reads RDKit's `tpsa` plus this sum (issue 24 item 4).
 *
 * The atom typing is RDKit's (Code/GraphMol/Descriptors/MolSurf.cpp, `getTPSAAtomContribs`):
 * per S or P atom its heavy neighbours, hydrogens, formal charge and single, double, triple and
 * aromatic bonds; a type Ertl's table does not list contributes 0 (unlike N and O, S and P have no
 * fallback formula). Equal to native RDKit 2022.09 on 2,000 ChEMBL and all NCI first_5K molecules
 * (`admet/admet-rules.validation.test.ts`).
 */
export function sulfurPhosphorusPsa(doc: RDKitJson): number {
  const molecule = doc.molecules?.[0] ?? {};
  const atomDefaults = { z: 6, impHs: 0, chg: 0, ...doc.defaults?.atom };
  const bondDefaults = { bo: 1, ...doc.defaults?.bond };
  const atoms = (molecule.atoms ?? []).map((raw) => ({ ...atomDefaults, ...raw }));
  const extension = rdkitExtensionOf(molecule);
  const aromatic = new Set(extension?.aromaticBonds ?? []);
  const count = atoms.map((atom) => ({ nbrs: 0, hs: atom.impHs, sing: 0, doub: 0, trip: 0, arom: 0 }));
  for (const [index, raw] of (molecule.bonds ?? []).entries()) {
    const bond = { ...bondDefaults, ...raw };
    const [a, b] = bond.atoms ?? [];
    if (a === undefined || b === undefined) continue;
    const ca = count[a];
    const cb = count[b];
    if (ca === undefined || cb === undefined) continue;
    // Every bond is a neighbour (RDKit's degree); a bond to an explicit H atom becomes a hydrogen.
    ca.nbrs++;
    cb.nbrs++;
    if (atoms[a]?.z === 1) {
      cb.nbrs--;
      cb.hs++;
    } else if (atoms[b]?.z === 1) {
      ca.nbrs--;
      ca.hs++;
    } else if (aromatic.has(index)) {
      ca.arom++;
      cb.arom++;
    } else if (bond.bo === 1 || bond.bo === 2 || bond.bo === 3) {
      const key = bond.bo === 1 ? "sing" : bond.bo === 2 ? "doub" : "trip";
      ca[key]++;
      cb[key]++;
    }
  }
  let total = 0;
  for (const [i, atom] of atoms.entries()) {
    const c = count[i];
    if (c === undefined || atom.chg !== 0) continue;
    if (atom.z === 15) total += phosphorus(c);
    else if (atom.z === 16) total += sulfur(c);
  }
  return total;
}

interface Counts {
  readonly nbrs: number;
  readonly hs: number;
  readonly sing: number;
  readonly doub: number;
  readonly arom: number;
}

/** Ertl's P types (all neutral): =P−, P(−)3, PH(−)2=, P(−)3=. */
function phosphorus(c: Counts): number {
  if (c.nbrs === 2 && c.hs === 0 && c.sing === 1 && c.doub === 1) return 34.14;
  if (c.nbrs === 3 && c.hs === 0 && c.sing === 3) return 13.59;
  if (c.nbrs === 3 && c.hs === 1 && c.sing === 2 && c.doub === 1) return 23.47;
  if (c.nbrs === 4 && c.hs === 0 && c.sing === 3 && c.doub === 1) return 9.81;
  return 0;
}

/** Ertl's S types (all neutral): S=, SH−, −S−, aromatic s, aromatic s=, −S(=)−, −S(=)(=)−. */
function sulfur(c: Counts): number {
  if (c.nbrs === 1 && c.hs === 0 && c.doub === 1) return 32.09;
  if (c.nbrs === 1 && c.hs === 1 && c.sing === 1) return 38.8;
  if (c.nbrs === 2 && c.hs === 0 && c.sing === 2) return 25.3;
  if (c.nbrs === 2 && c.hs === 0 && c.arom === 2) return 28.24;
  if (c.nbrs === 3 && c.hs === 0 && c.arom === 2 && c.doub === 1) return 21.7;
  if (c.nbrs === 3 && c.hs === 0 && c.sing === 2 && c.doub === 1) return 19.21;
  if (c.nbrs === 4 && c.hs === 0 && c.sing === 2 && c.doub === 2) return 8.38;
  return 0;
}
