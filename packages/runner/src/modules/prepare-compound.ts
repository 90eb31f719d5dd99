import type { PortfolioRow } from "../inputs/portfolio.ts";
import type { RDKit } from "./rdkit.ts";

/** RDKit descriptors of the standardized parent, rounded so the JSON is stable. */
export interface Descriptors {
  readonly exact_mw: number;
  readonly average_mw: number;
  readonly clogp: number;
  readonly tpsa: number;
  readonly hbd: number;
  readonly hba: number;
  readonly lipinski_hbd: number;
  readonly lipinski_hba: number;
  readonly rotatable_bonds: number;
  readonly aromatic_rings: number;
  readonly fraction_csp3: number;
  readonly heavy_atoms: number;
  readonly atom_stereo_centers: number;
  readonly unspecified_atom_stereo_centers: number;
}

export interface ParsedChemistry {
  readonly canonical_smiles: string;
  readonly inchi: string | null;
  readonly inchikey: string | null;
  readonly fragment_count: number;
  /** Largest fragment by heavy atoms: the standardized parent (salts and solvents stripped). */
  readonly parent_smiles: string;
  readonly parent_inchikey: string | null;
  readonly net_charge: number;
  readonly parent_net_charge: number;
  readonly descriptors: Descriptors;
  /** 2D depiction of the parent, an SVG fragment for the report (not part of the JSON outputs). */
  readonly depiction_svg: string;
}

/** A portfolio row with what RDKit could make of its SMILES: the input every module works on. */
export type PreparedCompound =
  | { readonly row: PortfolioRow; readonly ok: true; readonly chem: ParsedChemistry }
  | { readonly row: PortfolioRow; readonly ok: false; readonly error: string };

/**
 * Parses and standardizes one SMILES with RDKit. Every wasm object is deleted before returning:
 * the wasm heap is not garbage collected, so a leak here would grow with the portfolio.
 */
export function prepareCompound(rdkit: RDKit, row: PortfolioRow): PreparedCompound {
  if (row.smiles === "") return { row, ok: false, error: "empty SMILES" };
  const mol = rdkit.get_mol(row.smiles);
  if (mol === null) return { row, ok: false, error: "SMILES does not parse or sanitize" };
  try {
    if (!mol.is_valid() || mol.get_num_atoms() === 0) return { row, ok: false, error: "SMILES has no atoms" };
    const parent = largestFragment(rdkit, mol);
    try {
      const target = parent ?? mol;
      const inchi = safe(() => mol.get_inchi());
      const parentInchi = parent === null ? inchi : safe(() => parent.get_inchi());
      return {
        row,
        ok: true,
        chem: {
          canonical_smiles: mol.get_smiles(),
          inchi,
          inchikey: inchi ? safe(() => rdkit.get_inchikey_for_inchi(inchi)) : null,
          fragment_count: countFragments(mol),
          parent_smiles: target.get_smiles(),
          parent_inchikey: parentInchi ? safe(() => rdkit.get_inchikey_for_inchi(parentInchi)) : null,
          net_charge: netCharge(mol.get_json()),
          parent_net_charge: netCharge(target.get_json()),
          descriptors: readDescriptors(target.get_descriptors()),
          depiction_svg: stripXmlDeclaration(target.get_svg(260, 180)),
        },
      };
    } finally {
      parent?.delete();
    }
  } finally {
    mol.delete();
  }
}

type Mol = NonNullable<ReturnType<RDKit["get_mol"]>>;

function largestFragment(rdkit: RDKit, mol: Mol): Mol | null {
  const frags = mol.get_frags() as { molList: { size(): number; at(i: number): Mol | null; delete(): void } };
  const list = frags.molList;
  let bestAtoms = -1;
  let bestSmiles = "";
  try {
    if (list.size() <= 1) return null;
    for (let at = 0; at < list.size(); at++) {
      const fragment = list.at(at);
      if (fragment === null) continue;
      const atoms = fragment.get_num_atoms(true);
      const smiles = fragment.get_smiles();
      fragment.delete();
      // Ties broken by canonical SMILES so the parent does not depend on input order.
      if (atoms > bestAtoms || (atoms === bestAtoms && smiles < bestSmiles)) {
        bestAtoms = atoms;
        bestSmiles = smiles;
      }
    }
  } finally {
    list.delete();
  }
  return bestSmiles === "" ? null : rdkit.get_mol(bestSmiles);
}

function countFragments(mol: Mol): number {
  const frags = mol.get_frags() as { molList: { size(): number; delete(): void } };
  try {
    return frags.molList.size();
  } finally {
    frags.molList.delete();
  }
}

function netCharge(json: string): number {
  const parsed = JSON.parse(json) as { molecules?: { atoms?: { chg?: number }[] }[] };
  let total = 0;
  for (const molecule of parsed.molecules ?? [])
    for (const atom of molecule.atoms ?? []) total += atom.chg ?? 0;
  return total;
}

function readDescriptors(json: string): Descriptors {
  const d = JSON.parse(json) as Record<string, number>;
  const num = (key: string, digits: number) => round(d[key] ?? Number.NaN, digits);
  return {
    exact_mw: num("exactmw", 4),
    average_mw: num("amw", 3),
    clogp: num("CrippenClogP", 3),
    tpsa: num("tpsa", 2),
    hbd: num("NumHBD", 0),
    hba: num("NumHBA", 0),
    lipinski_hbd: num("lipinskiHBD", 0),
    lipinski_hba: num("lipinskiHBA", 0),
    rotatable_bonds: num("NumRotatableBonds", 0),
    aromatic_rings: num("NumAromaticRings", 0),
    fraction_csp3: num("FractionCSP3", 3),
    heavy_atoms: num("NumHeavyAtoms", 0),
    atom_stereo_centers: num("NumAtomStereoCenters", 0),
    unspecified_atom_stereo_centers: num("NumUnspecifiedAtomStereoCenters", 0),
  };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}

function safe<T>(compute: () => T): T | null {
  try {
    const value = compute();
    return value === "" ? null : value;
  } catch {
    return null;
  }
}

function stripXmlDeclaration(svg: string): string {
  return svg.replace(/^<\?xml[^>]*\?>\s*/, "");
}
