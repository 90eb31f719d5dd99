import type { Mol, RDKit } from "../rdkit.ts";
import { molJson } from "../rdkit-json.ts";
import { parseMatches } from "../substructure/screened-query.ts";
import { molSmiles } from "./mol-memo.ts";

/** The rule, as text, written into molecular_logic's raw output beside PARENT_RULE. */
export const NEUTRALISATION_RULE =
  "After the parent fragment is chosen, its acids and bases are neutralised where a neutral form " +
  "exists, as the ChEMBL structure pipeline's charge-neutral parent (Bento et al., J. Cheminform. " +
  "2020, 12, 51) and RDKit's rdMolStandardize.Uncharger do: a negative atom not bonded to a cation " +
  "takes a proton when its valence allows, a protonated cation loses one; a cation with no proton to " +
  "lose (quaternary N, N-alkyl pyridinium) is kept, with as many anions left charged as balance it, " +
  "and sets permanent_charge. Charge-separated groups (nitro, N-oxide) are left as drawn.";

/** The charge-neutral form of a parent and what it took. */
export interface NeutralParent {
  /** The neutralised molecule's canonical SMILES (the input's own when nothing changed). */
  readonly smiles: string;
  /** Whether any atom's charge was changed. */
  readonly neutralised: boolean;
  /** A cation that cannot lose a proton remains (RDKit's `pos_noh` pattern after neutralising). */
  readonly permanent_charge: boolean;
}

// RDKit's Uncharger patterns (Code/GraphMol/MolStandardize/Charge.cpp, Uncharger::Uncharger).
const POS_H = "[+,+2,+3,+4;!h0;!$(*~[-]),$(*(~[-])~[-])]";
const POS_NOH = "[+,+2,+3,+4;h0;!$(*~[-])]";
const NEG = "[-!$(*~[+,+2,+3,+4])]";
const NEG_ACID =
  // carboxylate, carbonate, sulfi(a)te and their thio-analogues
  "[$([O,S;-][C,S;+0]=[O,S])," +
  // phosphi(a)te, nitrate and their thio-analogues
  "$([O,S;-][N,P;+](=[O,S])[O,S;-])," +
  // hali(a)te, perhalate
  "$([O-][Cl,Br,I;+,+2,+3][O-])," +
  // tetrazole
  "$([n-]1nnnc1),$([n-]1ncnn1)]";

/**
 * RDKit's allowed valences (its periodic table's valence lists) for the elements an organic anion
 * is protonated on; `canAdjustValence` refuses any other element here (RDKit accepts up to 20 for
 * elements without a list, which no drug parent's anion is).
 */
const VALENCES: Readonly<Record<number, readonly number[]>> = {
  1: [1],
  5: [3],
  6: [4],
  7: [3],
  8: [2],
  9: [1],
  14: [4],
  15: [3, 5, 7],
  16: [2, 4, 6],
  17: [1],
  33: [3, 5, 7],
  34: [2, 4, 6],
  35: [1],
  52: [2, 4, 6],
  53: [1, 3, 5],
};

/**
 * Not "early" in RDKit's sense (`isEarlyAtom`: fewer than four outer electrons, i.e. groups 1, 2,
 * 13 and the metals): H and the main-group elements of groups 14–18. An early anion ([B-]) loses a
 * hydride rather than gaining a proton, so it is only neutralised when it has an H.
 */
const NOT_EARLY = new Set([
  1, 2, 6, 7, 8, 9, 10, 14, 15, 16, 17, 18, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 82, 83, 84, 85, 86,
]);

const queries = new WeakMap<RDKit, { posH: Mol; posNoH: Mol; neg: Mol; negAcid: Mol }>();

function compiled(rdkit: RDKit) {
  let found = queries.get(rdkit);
  if (found === undefined) {
    const q = (smarts: string) => {
      const mol = rdkit.get_qmol(smarts);
      if (mol === null) throw new Error(`Uncharger pattern does not parse: ${smarts}`);
      return mol;
    };
    found = { posH: q(POS_H), posNoH: q(POS_NOH), neg: q(NEG), negAcid: q(NEG_ACID) };
    queries.set(rdkit, found);
  }
  return found;
}

function firstAtoms(mol: Mol, query: Mol): number[] {
  return parseMatches(mol.get_substruct_matches(query)).flatMap((atoms) => atoms.slice(0, 1));
}

/**
 * The charge-neutral parent by RDKit's Uncharger algorithm (default options: no forced
 * neutralisation, protons both added and removed), ported onto RDKit WebAssembly, which has no
 * standardizer: the matches come from RDKit's own SMARTS engine, the charges are edited in RDKit's
 * molblock of the parent and the result is re-read (and sanitised) by RDKit. One
 * simplification: when a permanent cation must stay balanced by one of several different anions,
 * RDKit picks them in canonical atom rank, this port in atom order (the parents can then differ;
 * counted by `parent/neutralise-parent.validation.test.ts` against native RDKit).
 */
export function neutraliseParent(rdkit: RDKit, mol: Mol): NeutralParent {
  const q = compiled(rdkit);
  const posH = firstAtoms(mol, q.posH);
  const posNoH = firstAtoms(mol, q.posNoH);
  const neg = firstAtoms(mol, q.neg);
  const acid = firstAtoms(mol, q.negAcid);
  const smiles = molSmiles(mol);
  if (posH.length === 0 && neg.length === 0 && acid.length === 0)
    return { smiles, neutralised: false, permanent_charge: posNoH.length > 0 };

  const doc = molJson(mol);
  const molecule = doc.molecules?.[0];
  if (molecule === undefined) return { smiles, neutralised: false, permanent_charge: posNoH.length > 0 };
  const defaults = { z: 6, impHs: 0, chg: 0, ...doc.defaults?.atom };
  const atoms = (molecule.atoms ?? []).map((raw) => ({ ...defaults, ...raw }));
  const bondDefault = doc.defaults?.bond?.bo ?? 1;
  const neighbours = atoms.map(() => [] as number[]);
  const bondValence = atoms.map(() => 0);
  for (const bond of molecule.bonds ?? []) {
    const [a, b] = bond.atoms ?? [];
    if (a === undefined || b === undefined) continue;
    neighbours[a]?.push(b);
    neighbours[b]?.push(a);
    // RDKit's JSON writes Kekulé bond orders; dative and zero-order bonds add no valence here.
    const order = bond.bo ?? bondDefault;
    const valence = order >= 1 && order <= 4 ? order : 0;
    bondValence[a] = (bondValence[a] ?? 0) + valence;
    bondValence[b] = (bondValence[b] ?? 0) + valence;
  }
  const charge = (i: number) => atoms[i]?.chg ?? 0;
  const hydrogens = (i: number) => atoms[i]?.impHs ?? 0;
  const element = (i: number) => atoms[i]?.z ?? 0;
  let changed = false;
  const removeCharge = (i: number, removed: number, hDelta: number) => {
    const atom = atoms[i];
    if (atom === undefined) return;
    atom.impHs = atom.impHs + hDelta;
    atom.chg = atom.chg - removed;
    changed = true;
  };

  // Positive charge that cannot be removed (quaternary N and the like) must stay balanced.
  let permanent = 0;
  for (const i of posNoH) permanent += charge(i);
  for (const i of posH) if (hDeltaRemovingPos(element(i), hydrogens(i)) === 0) permanent += charge(i);

  // Anions: the plain ones first (those not also acid anions), then acid anions, skipping an
  // anion whose charge is balanced inside its own group (one per cation of a nitrate-like group).
  const acidSet = new Set(acid);
  const negAtoms = neg.filter((i) => !acidSet.has(i));
  const skip = atoms.map(() => 0);
  for (const i of acid) {
    for (const n of neighbours[i] ?? []) {
      const c = charge(n);
      if (c > 0) {
        if ((skip[n] ?? 0) < c) {
          skip[n] = (skip[n] ?? 0) + 1;
          skip[i] = 1;
        }
        break;
      }
    }
  }
  for (const i of acid) if (skip[i] === 0) negAtoms.push(i);

  let surplus = negAtoms.length - permanent;
  if (surplus !== 0) {
    for (const i of negAtoms) {
      const hDelta = hDeltaRemovingNeg(element(i), hydrogens(i));
      const target = (bondValence[i] ?? 0) + hydrogens(i) + hDelta;
      const allowed = VALENCES[element(i)];
      if (hDelta !== 0 && target >= 0 && allowed?.includes(target) === true) {
        removeCharge(i, -1, hDelta);
        surplus--;
        if (surplus === 0) break;
      }
    }
  }

  let net = atoms.reduce((sum, atom) => sum + atom.chg, 0);
  if (net > 0) {
    for (const i of posH) {
      while (charge(i) > 0 && net > 0) {
        const hDelta = hDeltaRemovingPos(element(i), hydrogens(i));
        if (hDelta === 0) break;
        removeCharge(i, 1, hDelta);
        net--;
      }
      if (net === 0) break;
    }
  }

  if (!changed) return { smiles, neutralised: false, permanent_charge: posNoH.length > 0 };
  const neutral = rdkit.get_mol(withCharges(mol.get_v3Kmolblock(), atoms));
  try {
    // A neutral form RDKit refuses (it never should) leaves the parent as drawn.
    if (neutral === null || !neutral.is_valid())
      return { smiles, neutralised: false, permanent_charge: posNoH.length > 0 };
    return {
      smiles: neutral.get_smiles(),
      neutralised: true,
      permanent_charge: firstAtoms(neutral, q.posNoH).length > 0,
    };
  } finally {
    neutral?.delete();
  }
}

/**
 * The molecule's V3000 molblock with each atom's charge set as `atoms` says. RDKit's JSON reader
 * drops E/Z double-bond stereo, so the edit goes through the molblock, whose 2D coordinates carry
 * both kinds of stereo. A changed atom's `VAL=` is dropped too: RDKit then gives it the hydrogens
 * of its default valence, which is the Uncharger's one proton more (anion) or fewer (cation).
 */
function withCharges(molblock: string, atoms: readonly { chg: number }[]): string {
  let inAtoms = false;
  return molblock
    .split("\n")
    .map((line) => {
      if (line.startsWith("M  V30 BEGIN ATOM")) inAtoms = true;
      else if (line.startsWith("M  V30 END ATOM")) inAtoms = false;
      else if (inAtoms) {
        const index = Number(line.slice(7).split(" ")[0]) - 1;
        const want = atoms[index]?.chg ?? 0;
        const had = Number(/ CHG=(-?\d+)/.exec(line)?.[1] ?? 0);
        if (want !== had) {
          const base = line.replace(/ CHG=-?\d+/, "").replace(/ VAL=-?\d+/, "");
          return want === 0 ? base : `${base} CHG=${want}`;
        }
      }
      return line;
    })
    .join("\n");
}

/** RDKit's `hDeltaRemovingNeg`: +1 (protonate), or for an early atom −1 (lose a hydride) if it has one. */
function hDeltaRemovingNeg(z: number, hs: number): number {
  const early = !NOT_EARLY.has(z);
  if (early && hs === 0) return 0;
  return early ? -1 : 1;
}

/** RDKit's `hDeltaRemovingPos`: −1 (deprotonate) when the atom has an H; C and early atoms gain one. */
function hDeltaRemovingPos(z: number, hs: number): number {
  const carbonOrEarly = z === 6 || !NOT_EARLY.has(z);
  if (!carbonOrEarly && hs === 0) return 0;
  return carbonOrEarly ? 1 : -1;
}

/**
 * Parents identical (as RDKit WebAssembly canonical SMILES) to native RDKit 2022.09's
 * LargestFragmentChooser + Uncharger. Recomputed by parent/neutralise-parent.validation.test.ts, so the
 * method card's figures cannot drift. ChEMBL: the first 2,000 compounds of the Lipophilicity set
 * (none charged); Tox21: the 7,666 of 7,823 whose parent is chosen by salt stripping (157 inorganic,
 * organometallic, metal-complex or radical inputs — two nitroxides — are kept whole by the class
 * gate), 365 of them neutralised.
 */
export const NEUTRAL_PARENT_VALIDATION = {
  chembl: { compounds: 2000, identical: 2000, kept_whole: 0 },
  tox21: { compounds: 7666, identical: 7648, neutralised: 365, kept_whole: 157 },
} as const;
