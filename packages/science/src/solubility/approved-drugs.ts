import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { DRUGCENTRAL_SOURCE_FILE } from "../target-risk/drugcentral-index.ts";
import { splitCsvLine } from "../toxicity/nibr-catalog.ts";

/** A DrugCentral drug on at least one approval list (FDA, EMA or PMDA). */
export interface ApprovedDrug {
  readonly struct_id: string;
  readonly name: string;
  readonly smiles: string;
}

/**
 * The approved drugs of `drugcentral-structures-approval-targets.csv.gz` (Avram et al., Nucleic
 * Acids Res. 2023; CC BY-SA 4.0): the reference set whose share in the solubility model's domain is
 * reported (issue 36 item 9). Read, never redistributed in another table.
 */
export function approvedDrugs(): ApprovedDrug[] {
  const gz = readFileSync(new URL(`../../data/${DRUGCENTRAL_SOURCE_FILE}`, import.meta.url));
  const lines = gunzipSync(gz)
    .toString("utf8")
    .split(/\r?\n/)
    .filter((line) => line !== "");
  const header = splitCsvLine(lines[0] ?? "");
  const at = (name: string) => header.indexOf(name);
  const approved = ["in_FDA_Approved_csv", "in_EMA_Approved_csv", "in_PMDA_Approved_csv"].map(at);
  return lines.slice(1).flatMap((line) => {
    const fields = splitCsvLine(line);
    if (!approved.some((column) => fields[column] === "1")) return [];
    const smiles = fields[at("SMILES")] ?? "";
    if (smiles === "") return [];
    return [{ struct_id: fields[at("struct_id")] ?? "", name: fields[at("INN")] ?? "", smiles }];
  });
}
