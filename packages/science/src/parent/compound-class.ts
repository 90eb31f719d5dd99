import type { Mol } from "../rdkit.ts";
import { molJson, type RDKitJson } from "../rdkit-json.ts";

/**
 * What kind of compound the input is, decided on the whole input before any salt is stripped
 * (issue 24 item 2): the models here were trained on organic drug-like compounds only, so every
 * other class is out of their domain and no parent is invented for it.
 */
export type CompoundClass =
  | "organic"
  | "organic_salt"
  | "non_druglike_elements"
  | "inorganic"
  | "organometallic"
  | "metal_complex"
  | "polymer_or_fragment"
  | "radical";

/** The classes the ADMET, toxicity and solubility models may speak for (their training sets hold only these). */
export const IN_DOMAIN_CLASSES: ReadonlySet<CompoundClass> = new Set(["organic", "organic_salt"]);

/**
 * The drug-like element set: H C N O F P S Cl Br I. This is the project's own rule, not a published
 * list: it is the element set of the compounds the checked-in models were fitted on once parents
 * are chosen (the organic BBBP, Lipophilicity, Delaney, AqSolDB, TDC, Tox21 and ClinTox parents), so
 * a compound holding another element lies outside every model's training data. Screening-set
 * filters reject unwanted elements in the same spirit (the Lilly MedChem Rules, Bruns & Watson,
 * J. Med. Chem. 2012, 55, 9763), with lists that differ in detail.
 */
export const DRUGLIKE_ELEMENTS: ReadonlySet<number> = new Set([1, 6, 7, 8, 9, 15, 16, 17, 35, 53]);

/**
 * Metals that are a counterion, never the compound: Li, Na, K, Mg, Ca (the alkali and alkaline-
 * earth cations of pharmaceutical salts, Stahl & Wermuth, Handbook of Pharmaceutical Salts 2002;
 * issue 24 item 2). Only as free ions beside an organic anion; bonded, or beside no organic
 * fragment (Li2CO3, NaCl), they are not stripped.
 */
export const COUNTERION_METALS: ReadonlySet<number> = new Set([3, 11, 19, 12, 20]);

/**
 * Non-metals and metalloids (IUPAC periodic table; B, Si, Ge, As, Sb, Te counted as metalloids,
 * i.e. not metals here but outside the drug-like set). Every other element is a metal.
 */
const NON_METALS: ReadonlySet<number> = new Set([
  0, // the dummy atom `*`: an attachment point, not an element (see polymer_or_fragment)
  1,
  2,
  5,
  6,
  7,
  8,
  9,
  10,
  14,
  15,
  16,
  17,
  18,
  32,
  33,
  34,
  35,
  36,
  51,
  52,
  53,
  54,
  85,
  86,
]);

export const COMPOUND_CLASS_RULE =
  "Decided on the whole input before salts are stripped. A metal is any element but H, He, B, C, N, O, F, " +
  "Ne, Si, P, S, Cl, Ar, Ge, As, Se, Br, Kr, Sb, Te, I, Xe, At, Rn. Carbon is inorganic when it carries no " +
  "hydrogen and each non-metal neighbour is a terminal O, N or S (carbonate, CO, CO2, cyanide, cyanate, " +
  "thiocyanate). organometallic: a metal bonded to carbon, or a metal cation other than a counterion beside " +
  "a carbanion (ionic sandwich forms such as ferrocene written as Fe2+ and two cyclopentadienides). " +
  "metal_complex: any other metal that is bonded, or a metal cation other than Li, Na, K, Mg, Ca beside an " +
  "organic fragment (a metal bonded to N or P with no organic carbon, e.g. cisplatin, is a complex too). " +
  "inorganic: no organic carbon (NaCl, Li2CO3, As2O3, HgCl2, boranes). Li, Na, K, Mg and Ca are counterions " +
  "only as free ions beside an organic fragment. non_druglike_elements: organic, but the parent holds an " +
  "element outside H C N O F P S Cl Br I (Lilly MedChem Rules, Bruns & Watson 2012). organic_salt: organic, " +
  "with salts or solvents stripped; organic otherwise. Only organic and organic_salt inputs are salt-stripped " +
  "and neutralised; for every other class the whole input is kept (no parent is invented) and the models " +
  "whose training data hold no such compounds say out_of_domain. Decided first: polymer_or_fragment, any dummy " +
  "atom (*: a polymer's repeat unit or a fragment written with open attachment points, not a molecule). " +
  "radical: organic, drug-like elements, but a non-metal atom of the parent has an unpaired electron (RDKit's " +
  "radical count): the Morgan bits and descriptors the models read do not encode it, and their training sets " +
  "hold almost no open-shell species (two nitroxides among Tox21's rows, one Ames row).";

const SYMBOLS: Readonly<Record<number, string>> = {
  1: "H",
  3: "Li",
  5: "B",
  6: "C",
  7: "N",
  8: "O",
  9: "F",
  11: "Na",
  12: "Mg",
  13: "Al",
  14: "Si",
  15: "P",
  16: "S",
  17: "Cl",
  19: "K",
  20: "Ca",
  26: "Fe",
  29: "Cu",
  30: "Zn",
  32: "Ge",
  33: "As",
  34: "Se",
  35: "Br",
  50: "Sn",
  51: "Sb",
  52: "Te",
  53: "I",
  78: "Pt",
  79: "Au",
  80: "Hg",
  82: "Pb",
};

function symbol(z: number): string {
  return SYMBOLS[z] ?? `element ${z}`;
}

interface Atom {
  readonly z: number;
  readonly rad: number;
  readonly chg: number;
  readonly hs: number;
  readonly neighbours: number[];
}

/** The atoms of RDKit's JSON (defaults applied) with their neighbours and hydrogen counts. */
function readAtoms(parsed: RDKitJson): Atom[] {
  const d = parsed.defaults?.atom ?? {};
  const atoms: Atom[] = [];
  for (const molecule of parsed.molecules ?? []) {
    const offset = atoms.length;
    for (const a of molecule.atoms ?? [])
      atoms.push({
        z: a.z ?? d.z ?? 6,
        rad: a.nRad ?? d.nRad ?? 0,
        chg: a.chg ?? d.chg ?? 0,
        hs: a.impHs ?? d.impHs ?? 0,
        neighbours: [],
      });
    for (const bond of molecule.bonds ?? []) {
      const [i, j] = bond.atoms ?? [-1, -1];
      atoms[offset + i]?.neighbours.push(offset + j);
      atoms[offset + j]?.neighbours.push(offset + i);
    }
  }
  // Explicit hydrogen atoms count as hydrogens of their neighbour, not as neighbours.
  return atoms.map((atom) => ({
    ...atom,
    hs: atom.hs + atom.neighbours.filter((n) => atoms[n]?.z === 1).length,
    neighbours: atom.neighbours.filter((n) => atoms[n]?.z !== 1),
  }));
}

const isMetal = (z: number) => !NON_METALS.has(z);

/** Carbon of carbonate, CO, CO2, cyanide, cyanate or thiocyanate: no H, only terminal O, N or S non-metal neighbours. */
function isInorganicCarbon(atoms: readonly Atom[], at: number): boolean {
  const carbon = atoms[at] as Atom;
  if (carbon.hs > 0) return false;
  const nonMetal = carbon.neighbours.filter((n) => !isMetal((atoms[n] as Atom).z));
  if (nonMetal.length === 0) return false;
  return nonMetal.every((n) => {
    const neighbour = atoms[n] as Atom;
    if (neighbour.z !== 8 && neighbour.z !== 7 && neighbour.z !== 16) return false;
    const terminal = neighbour.neighbours.every((m) => m === at || isMetal((atoms[m] as Atom).z));
    return terminal && (neighbour.z === 8 || neighbour.hs === 0);
  });
}

/** The class decided on the whole input, before the parent is chosen. */
export interface InputClass {
  /** null: organic; the parent chooser then decides between organic and organic_salt. */
  readonly compound_class: Exclude<
    CompoundClass,
    "organic" | "organic_salt" | "non_druglike_elements" | "radical"
  > | null;
  readonly reason: string;
}

/** Classifies the whole input as COMPOUND_CLASS_RULE says (metals and organic carbon). */
export function classifyInput(mol: Mol): InputClass {
  const atoms = readAtoms(molJson(mol));
  const dummies = atoms.filter((a) => a.z === 0).length;
  if (dummies > 0)
    return {
      compound_class: "polymer_or_fragment",
      reason: `${dummies} dummy atom(s) (*): a polymer repeat unit or a fragment with open attachment points, not a molecule`,
    };
  const organicCarbon = atoms.map((a, at) => a.z === 6 && !isInorganicCarbon(atoms, at));
  const hasOrganic = organicCarbon.some(Boolean);
  const metals = [...new Set(atoms.filter((a) => isMetal(a.z)).map((a) => symbol(a.z)))];
  const named = metals.join(", ");
  let metalCarbon = false;
  let metalBonded = false;
  let metalToNP = false;
  let foreignCation = false;
  for (const atom of atoms) {
    if (!isMetal(atom.z)) continue;
    if (atom.neighbours.length > 0) {
      metalBonded = true;
      if (atom.neighbours.some((n) => (atoms[n] as Atom).z === 6)) metalCarbon = true;
      if (atom.neighbours.some((n) => [7, 15].includes((atoms[n] as Atom).z))) metalToNP = true;
    } else if (!COUNTERION_METALS.has(atom.z)) foreignCation = true;
  }
  const carbanion = atoms.some((a, at) => a.z === 6 && a.chg < 0 && organicCarbon[at]);
  if (metalCarbon || (foreignCation && carbanion))
    return {
      compound_class: "organometallic",
      reason: metalCarbon
        ? `a metal (${named}) is bonded to carbon`
        : `a metal cation (${named}) beside a carbanion (an ionic organometallic, e.g. a sandwich compound)`,
    };
  if (!hasOrganic) {
    if (metalToNP)
      return {
        compound_class: "metal_complex",
        reason: `a metal (${named}) bonded to N or P ligands, no organic carbon`,
      };
    const what =
      metals.length > 0
        ? `elements ${elementList(atoms)} with metal ${named}`
        : `elements ${elementList(atoms)}`;
    return { compound_class: "inorganic", reason: `no organic carbon (${what})` };
  }
  if (metalBonded || foreignCation)
    return {
      compound_class: "metal_complex",
      reason: metalBonded
        ? `a metal (${named}) bonded to an organic or inorganic ligand`
        : `a metal cation (${named}) that is not a pharmaceutical counterion (Li, Na, K, Mg, Ca)`,
    };
  return { compound_class: null, reason: "organic" };
}

function elementList(atoms: readonly Atom[]): string {
  return [...new Set(atoms.map((a) => symbol(a.z)))].sort().join(" ");
}

/**
 * The non-metal atoms of a (parent) molecule with an unpaired electron, as symbols (a metal drawn
 * as a bare neutral atom, `[Na]`, gets a radical count from RDKit but is a counterion, not a
 * radical; a stray `[Cl]` beside a drug is stripped before the parent is read).
 */
export function radicalAtoms(mol: Mol): string[] {
  return readAtoms(molJson(mol))
    .filter((a) => a.rad > 0 && !isMetal(a.z))
    .map((a) => symbol(a.z));
}

/** The elements of a (parent) molecule outside DRUGLIKE_ELEMENTS, as symbols. */
export function nonDruglikeElements(mol: Mol): string[] {
  const atoms = readAtoms(molJson(mol));
  return [...new Set(atoms.filter((a) => !DRUGLIKE_ELEMENTS.has(a.z)).map((a) => symbol(a.z)))].sort();
}
