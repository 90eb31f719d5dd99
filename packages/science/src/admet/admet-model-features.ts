import { morganOnBits } from "../fingerprint/morgan.ts";
import { chooseParent } from "../parent/choose-parent.ts";
import { type Mol, parseSmiles, type RDKit } from "../rdkit.ts";
import { type AdmetDescriptors, admetDescriptors } from "./admet-descriptors.ts";
import { isAnionic } from "./bioavailability-score.ts";

/** What the BBB and logD models read of a parent: its Morgan bits, descriptors and anion flag. */
export interface ParentFeatures {
  readonly onBits: number[];
  readonly descriptors: AdmetDescriptors;
  readonly anionic: boolean;
}

function featuresOf(rdkit: RDKit, mol: Mol): ParentFeatures {
  return {
    onBits: morganOnBits(mol),
    descriptors: admetDescriptors(rdkit, mol),
    anionic: isAnionic(rdkit, mol),
  };
}

/**
 * The features of a dataset SMILES's parent (salts and solvents stripped as molecular_logic does),
 * so training rows and queries are featurised the same way; null when RDKit refuses the SMILES.
 */
export function parentFeatures(rdkit: RDKit, smiles: string): ParentFeatures | null {
  const parsed = parseSmiles(rdkit, smiles);
  if ("error" in parsed) return null;
  try {
    const choice = chooseParent(rdkit, parsed.mol);
    if (choice.fragment_count <= 1) return featuresOf(rdkit, parsed.mol);
    const parent = rdkit.get_mol(choice.parent_smiles);
    try {
      return featuresOf(rdkit, parent?.is_valid() ? parent : parsed.mol);
    } finally {
      parent?.delete();
    }
  } finally {
    parsed.mol.delete();
  }
}

/**
 * The logD model's descriptor columns: lipophilicity (Wildman–Crippen logP), polarity, size,
 * H-bonding and flexibility, and whether the parent carries an acid ionised at pH 7.4 (log D of an
 * acid falls below its log P by about pH − pKa; Scherrer & Howard, J. Med. Chem. 1977, 20, 53).
 */
export const LOGD_DESCRIPTORS = [
  "wlogp",
  "tpsa",
  "mw",
  "hbd",
  "hba",
  "rotatable_bonds",
  "fsp3",
  "rings",
  "anionic",
] as const;

export function logdDescriptorRow(d: AdmetDescriptors, anionic: boolean): number[] {
  return [d.wlogp, d.tpsa, d.mw, d.hbd, d.hba, d.rotatable_bonds, d.fsp3, d.rings, anionic ? 1 : 0];
}
