import { parseLipophilicity } from "../../src/admet/lipophilicity-set.ts";
import { readDataFile } from "../../src/data/read-data-file.ts";

/** How many compounds of the ChEMBL set the native comparisons of issue 24 use. */
export const CHEMBL_SET_SIZE = 2_000;

/**
 * A ChEMBL-drawn set for comparisons with native RDKit: the first 2,000 rows of AstraZeneca's
 * Lipophilicity deposition in ChEMBL (CHEMBL3301361, `data/lipo.csv`), drug-like medicinal
 * chemistry unlike NCI's. Ids are `lipo-<row>` (1-based, header not counted).
 */
export function chemblSet(): [smiles: string, id: string][] {
  return parseLipophilicity(readDataFile("lipo.csv"))
    .slice(0, CHEMBL_SET_SIZE)
    .map((row, i) => [row.smiles, `lipo-${i + 1}`]);
}

/** The set as `smiles id` lines, the input of `test/native/*.py` read from stdin (`-`). */
export function chemblSmi(): string {
  return chemblSet()
    .map(([smiles, id]) => `${smiles} ${id}`)
    .join("\n");
}
