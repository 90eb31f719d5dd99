import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CompoundRow } from "../../src/compound-row.ts";

/** ChEMBL series CHEMBL2321810 (data/PROVENANCE.md): `smiles id` lines, and `id,pIC50` with a header. */
export const SERIES_SMI = fileURLToPath(new URL("../../data/chembl2321810.smi", import.meta.url));
export const SERIES_ACT = fileURLToPath(new URL("../../data/chembl2321810-act.csv", import.meta.url));

/** The first `n` compounds of the series (all when absent), each with its measured pIC50 as assay `assay`. */
export function chemblSeriesRows(n?: number): CompoundRow[] {
  const activity = new Map(
    readFileSync(SERIES_ACT, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(","))
      .map(([id = "", value = ""]) => [id, Number(value)] as const),
  );
  return readFileSync(SERIES_SMI, "utf8")
    .trim()
    .split("\n")
    .slice(0, n)
    .map((line, at) => {
      const [smiles = "", id = ""] = line.split(/\s+/);
      return {
        index: at + 1,
        line: at + 1,
        candidateId: id,
        name: null,
        smiles,
        metadata: {},
        activities: { assay: activity.get(id) as number },
      };
    });
}
