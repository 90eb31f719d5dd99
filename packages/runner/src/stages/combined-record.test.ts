import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CompoundFinding } from "@svc/science/modules";
import type { AnalysisItem } from "../modules/run-modules.ts";
import { combinedRecord, combinedRecordJson } from "./combined-record.ts";

const item = (smiles: string, metadata: Record<string, string>): AnalysisItem => ({
  compound: {
    row: { index: 3, line: 4, candidateId: 'NCI-\u00e9"7', name: null, smiles, metadata },
    ok: false,
    error: "unassessed: time budget",
    unassessed: true,
  },
  analysis: null,
});

const json = (findings: ReadonlyMap<string, CompoundFinding>) =>
  new Map([...findings].map(([id, finding]) => [id, JSON.stringify(finding)]));

// Issue 42 item 2: each finding is stringified once, for raw/ and for the combined record.
describe("the combined record's JSON from the findings' JSON", () => {
  it("equals JSON.stringify of the record, byte for byte, with nested, unicode and non-finite values", () => {
    const findings = new Map<string, CompoundFinding>([
      [
        "toxicity_profile",
        {
          candidate_id: 'NCI-\u00e9"7',
          evidence_id: "EID-1",
          alerts: ["Michael_acceptor_1", "≥ 2"],
          nested: { p: 0.1 + 0.2, none: null, skipped: undefined, nan: Number.NaN, list: [1e-7, -0] },
        } as CompoundFinding,
      ],
      ["admet_predictions", { candidate_id: "x", evidence_id: "EID-2", qed: 0.734 } as CompoundFinding],
    ]);
    const at = item("C(=O)O\u2028", { series: 'A,"1"', "n\u00b0": "2" });
    const validated = { status: "unassessed" as const, reason: "time budget" };
    assert.equal(
      combinedRecordJson(at, json(findings), validated),
      JSON.stringify(combinedRecord(at, findings, validated)),
    );
  });

  it("a compound with no finding and no validation record writes an empty findings object", () => {
    const at = item("", {});
    const none = new Map<string, CompoundFinding>();
    assert.equal(
      combinedRecordJson(at, json(none), undefined),
      JSON.stringify(combinedRecord(at, none, undefined)),
    );
    assert.deepEqual(JSON.parse(combinedRecordJson(at, json(none), undefined)).findings, {});
  });
});
