import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type InputHashes, type ModulePlanFile, RUN_FILES, type RunManifest, runPath } from "@svc/core";

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
