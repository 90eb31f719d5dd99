import { readDataFile } from "../data/read-data-file.ts";
import type { SplitPart } from "../numeric/random-split.ts";

/** One dataset's scaffold split as `scripts/scaffold-split.py` wrote it (native RDKit). */
export interface ScaffoldSplit {
  readonly rows: number;
  /** sha256 of the dataset file the split was computed from. */
  readonly sha256: string;
  readonly parsed: number;
  readonly scaffolds: number;
  readonly train: number;
  readonly valid: number;
  readonly test: number;
  /** Per data row: t(rain), v(alid), s (test) or x (native RDKit refused the SMILES). */
  readonly row_split: string;
}

export interface ScaffoldSplitFile {
  readonly generated_by: string;
  readonly rdkit_version: string;
  readonly method: string;
  readonly datasets: Readonly<Record<ScaffoldDataset, ScaffoldSplit>>;
}

export type ScaffoldDataset = "bbbp.csv" | "lipo.csv" | "tox21.csv";

export function readScaffoldSplits(): ScaffoldSplitFile {
  return JSON.parse(readDataFile("scaffold-splits.json")) as ScaffoldSplitFile;
}

const PARTS: Readonly<Record<string, SplitPart | null>> = { t: "train", v: "valid", s: "test", x: null };

/**
 * MoleculeNet's scaffold split of a dataset (Wu et al., Chem. Sci. 2018, 9, 513, §3.2): per row its
 * part, null for a row native RDKit refused. Scaffolds come from native RDKit's MurckoScaffold.
 */
export function scaffoldSplit(dataset: ScaffoldDataset): (SplitPart | null)[] {
  return [...readScaffoldSplits().datasets[dataset].row_split].map((code) => PARTS[code] ?? null);
}
