// Builds data/drugcentral-target-index.json (CC BY-SA 4.0, derived from DrugCentral 2023): every
// DrugCentral drug RDKit prepares that has at least one target, with its UniProt targets, the Morgan
// radius-2, 2,048-bit fingerprint of its parent and its part of a scaffold split, and the held-out
// validation of offtarget_screening's nearest-drug target transfer (offtarget/offtarget-validation.ts).
//
// The table and the featurisation are target_biology_risk's (target-risk/drugcentral-table.ts: the
// runner's prepareCompound and compoundOnBits); the split is the shared MoleculeNet scaffold split
// (scaffold/scaffold-split.ts, 80/10/10 over the drugs with a target, in the table's order).
//
// Target names: DrugCentral joins the names of a drug's targets with ";" and some names hold a ";"
// themselves, so a drug's names are aligned with its accessions only where the counts agree; each
// accession takes its most frequent aligned name (ties: the first in code-point order), else its
// accession.
//
// Run: node packages/science/scripts/build-drugcentral-target-index.ts            (writes the file)
//      node packages/science/scripts/build-drugcentral-target-index.ts --stdout   (the test's route)
import { writeFileSync } from "node:fs";
import { encodeOnBits } from "../src/fingerprint/morgan.ts";
import {
  DRUGCENTRAL_TARGET_INDEX_FILE,
  type DrugCentralTargetIndexFile,
  type TargetIndexedDrug,
} from "../src/offtarget/drugcentral-target-index.ts";
import { validateOfftarget } from "../src/offtarget/offtarget-validation.ts";
import { loadRDKit } from "../src/rdkit.ts";
import { scaffoldSplitParts } from "../src/scaffold/scaffold-split.ts";
import { DRUGCENTRAL_SOURCE_FILE } from "../src/target-risk/drugcentral-index.ts";
import { prepareDrugCentral, readDrugCentralTable } from "../src/target-risk/drugcentral-table.ts";

const SPLIT =
  "scaffold (MoleculeNet's rule: Bemis–Murcko scaffold groups of the parents, largest first, 80/10/10), " +
  "over the DrugCentral drugs with at least one target; valid and test see only train drugs";

/** accession → its name, from the rows whose names align one to one with their target entries. */
function targetNames(rows: ReturnType<typeof readDrugCentralTable>["rows"]): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const entries = (row.target_accessions ?? "").split(";").filter((e) => e !== "");
    const names = (row.target_names ?? "").split(";").filter((n) => n !== "");
    if (entries.length !== names.length) continue;
    entries.forEach((entry, at) => {
      const name = (names[at] as string).trim();
      for (const accession of entry.split("|")) {
        const tally = votes.get(accession) ?? new Map<string, number>();
        tally.set(name, (tally.get(name) ?? 0) + 1);
        votes.set(accession, tally);
      }
    });
  }
  return new Map(
    [...votes].map(([accession, tally]) => [
      accession,
      ([...tally].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] as [string, number])[0],
    ]),
  );
}

const { rows, sha256 } = readDrugCentralTable();
const prepared = prepareDrugCentral(await loadRDKit(), rows).filter((drug) => drug.accessions.length > 0);
const names = targetNames(rows);
const accessions = [...new Set(prepared.flatMap((drug) => drug.accessions))].sort();
const position = new Map(accessions.map((accession, at) => [accession, at]));
const parts = scaffoldSplitParts(prepared.map((drug) => drug.scaffold));
const drugs: TargetIndexedDrug[] = prepared.map((drug, at) => ({
  struct_id: drug.struct_id,
  name: drug.name,
  approvals: drug.approvals,
  targets: [...new Set(drug.accessions.map((a) => position.get(a) as number))].sort((a, b) => a - b),
  part: parts[at] as TargetIndexedDrug["part"],
  bits: encodeOnBits(drug.onBits),
}));
const file: DrugCentralTargetIndexFile = {
  schema: "svc.drugcentral-target-index/v1",
  licence:
    "CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), as the DrugCentral data it is derived from",
  attribution:
    "Derived from DrugCentral 2023 (Avram et al., Nucleic Acids Res. 2023, 51, D1276; unmtransinfo/DrugCentral-2023): " +
    "structures, FDA/EMA/PMDA approval lists and UniProt targets. Changes: parents fingerprinted, targets listed " +
    "per UniProt accession with DrugCentral's name where it aligns, drugs assigned to a scaffold split.",
  source: { file: DRUGCENTRAL_SOURCE_FILE, sha256, rows: rows.length },
  fingerprint:
    "Morgan radius 2, 2,048 bits (RDKit WebAssembly) of the charge-neutral parent made by prepareCompound, as a run's compounds",
  evaluation_set: `${drugs.length} of ${rows.length} structures prepared with at least one target; ${accessions.length} targets`,
  validation: validateOfftarget(drugs, SPLIT),
  targets: accessions.map((accession) => ({ accession, name: names.get(accession) ?? accession })),
  drugs,
};
const { drugs: indexed, targets, ...head } = file;
const text = JSON.stringify({ ...head, targets: "__TARGETS__", drugs: "__DRUGS__" }, null, 2)
  .replace('"__TARGETS__"', `[\n${targets.map((t) => `    ${JSON.stringify(t)}`).join(",\n")}\n  ]`)
  .replace('"__DRUGS__"', `[\n${indexed.map((drug) => `    ${JSON.stringify(drug)}`).join(",\n")}\n  ]`);
if (process.argv.includes("--stdout")) process.stdout.write(`${text}\n`);
else writeFileSync(new URL(`../data/${DRUGCENTRAL_TARGET_INDEX_FILE}`, import.meta.url), `${text}\n`);
