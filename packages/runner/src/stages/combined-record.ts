import type { CompoundFinding } from "@svc/science/modules";
import type { AnalysisItem } from "../modules/run-modules.ts";
import type { ValidatedRow } from "./validate-rows.ts";

/** One compound's record in the combined outputs: its row, how validation judged it, every module's finding. */
export function combinedRecord(
  item: AnalysisItem,
  findings: ReadonlyMap<string, CompoundFinding>,
  validated: Pick<ValidatedRow, "status" | "reason"> | undefined,
) {
  return { ...recordFields(item, validated), findings: Object.fromEntries(findings) };
}

/**
 * `JSON.stringify(combinedRecord(...))`, assembled from each finding's JSON as raw/ wrote it rather
 * than serializing every finding a second time (issue 42 item 2): the same bytes, since the record's
 * `findings` is last and its keys (module ids) are not array indices, so they keep insertion order.
 */
export function combinedRecordJson(
  item: AnalysisItem,
  findingsJson: ReadonlyMap<string, string>,
  validated: Pick<ValidatedRow, "status" | "reason"> | undefined,
): string {
  const head = JSON.stringify(recordFields(item, validated)).slice(0, -1);
  const entries = [...findingsJson].map(([moduleId, json]) => `${JSON.stringify(moduleId)}:${json}`);
  return `${head},"findings":{${entries.join(",")}}}`;
}

function recordFields(
  { compound }: AnalysisItem,
  validated: Pick<ValidatedRow, "status" | "reason"> | undefined,
) {
  return {
    candidate_id: compound.row.candidateId,
    name: compound.row.name,
    line: compound.row.line,
    input_smiles: compound.row.smiles,
    parsed: compound.ok,
    // ok | invalid | unassessed (too large, RDKit fault or time budget), as in inputs/validation.json.
    assessment: validated?.status ?? null,
    assessment_reason: validated?.reason ?? null,
    metadata: compound.row.metadata,
  };
}
