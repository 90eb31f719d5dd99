import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  type CompletedSummary,
  type InputHashes,
  type ModulePlanFile,
  RUN_FILES,
  type RunManifest,
  runPath,
} from "@svc/core";

/**
 * The run documents the sealing steps read back (the provenance facts, issue 30 item 6): the
 * staged inputs' hashes, the module plan and the manifest, each in the shape core's run-folder
 * schemas check (docs/contracts/run-folder.md), with one executed module. Written as JSON into
 * `runDir`; `inputPaths` are the staged files the hashes list.
 */
export async function writeRunFolderDocuments(
  runDir: string,
  options: { runId: string; inputPaths?: readonly string[] },
): Promise<void> {
  const hex = (char: string) => char.repeat(64);
  const inputs: InputHashes = {
    format: "svc-tree/v1",
    inputs_sha256: hex("0"),
    files: (options.inputPaths ?? ["portfolio.csv"]).map((path) => ({ path, sha256: hex("1") })),
  };
  const plan: ModulePlanFile = {
    schema: "svc.module-plan/v1",
    run_id: options.runId,
    generated_at: "2026-12-01T00:00:00Z",
    policy_version: "policy-1",
    category_resolution: { category_id: "ligand_only", resolved_by: "auto", forced: false, rule: "r" },
    counts: { coverage_ratio: 1, claim_strength: "SUPPORTED", missing_required: [] },
    modules: [
      {
        module_id: "molecular_logic",
        bucket: "required",
        risk_channel: "chemistry",
        outcome: "executed",
        reason: null,
        detail: null,
        version: "1.0.0",
      },
    ],
  };
  const manifest: RunManifest = {
    schema: "svc.run-manifest/v1",
    run_id: options.runId,
    project_id: "demo",
    mode: "standard",
    module_id: "ligand_audit",
    category_id: "ligand_only",
    started_at: "2026-12-01T00:00:00Z",
    outputs_completed_at: "2026-12-01T00:01:00Z",
    runtime: { runner_version: "0.1.0" },
    entitlement: { principal: "dev:alice" },
    outputs: {
      plan: runPath("modulePlan", { run_id: options.runId }),
      summary: RUN_FILES.summary,
      report: RUN_FILES.reportHtml,
    },
  };
  const documents: [string, unknown][] = [
    [RUN_FILES.inputHashes, inputs],
    [runPath("modulePlan", { run_id: options.runId }), plan],
    [RUN_FILES.manifest, manifest],
  ];
  for (const [path, value] of documents) {
    await mkdir(dirname(join(runDir, path)), { recursive: true });
    await writeFile(join(runDir, path), JSON.stringify(value));
  }
}

/**
 * A finished run's `results/summary.json` in the shape core's schema checks (svc.summary/v2,
 * `status: completed`), for tests that write a run folder by hand; `fields` sets what a test asserts.
 */
export function completedSummaryDocument(
  runId: string,
  fields: Partial<
    Pick<
      CompletedSummary,
      "category_id" | "claim_strength" | "coverage_ratio" | "missing_proof" | "generated_at"
    >
  > & {
    readonly compounds?: { readonly total: number; readonly parsed: number };
  } = {},
): CompletedSummary {
  const compounds = fields.compounds ?? { total: 3, parsed: 3 };
  return {
    schema: "svc.summary/v2",
    status: "completed",
    run_id: runId,
    project_id: "proj-1",
    mode: "standard",
    module_id: "ligand_audit",
    category_id: fields.category_id ?? "ligand_only",
    generated_at: fields.generated_at ?? "2026-11-23T10:00:00Z",
    inputs_sha256: "0".repeat(64),
    compounds: { ...compounds, unparseable: compounds.total - compounds.parsed, unassessed: 0 },
    claim_strength: fields.claim_strength ?? "SUPPORTED",
    claim_reasons: fields.claim_strength === "HYPOTHESIS" ? ["a required module did not run"] : [],
    profile: "oral_peripheral",
    coverage_ratio: fields.coverage_ratio ?? 1,
    missing_proof: fields.missing_proof ?? [],
    report: RUN_FILES.reportHtml,
  };
}
