import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { CoreError } from "../core-error.ts";
import { runStatusPathOfRunDir } from "../run-layout.ts";
import { readRunFolder } from "./read-run-folder.ts";
import { RUN_FILES, runPath } from "./run-files.ts";

const HASH = "a".repeat(64);

const SUMMARY = {
  schema: "svc.summary/v2",
  status: "completed",
  run_id: "run-1",
  project_id: "demo",
  mode: "standard",
  module_id: "ligand_audit",
  category_id: "ligand_only",
  generated_at: "2026-12-01T00:00:00Z",
  inputs_sha256: HASH,
  compounds: { total: 3, parsed: 3, unparseable: 0, unassessed: 0, duplicates: 0 },
  claim_strength: "SUPPORTED",
  claim_reasons: [],
  profile: "oral_peripheral",
  coverage_ratio: 1,
  missing_proof: [],
  report: "results/report.html",
};

const PLAN = {
  schema: "svc.module-plan/v1",
  run_id: "run-1",
  generated_at: "2026-12-01T00:00:00Z",
  policy_version: "p1",
  category_resolution: { category_id: "ligand_only", resolved_by: "auto", forced: false, rule: "r" },
  counts: { coverage_ratio: 1, claim_strength: "SUPPORTED", missing_required: [] },
  modules: [
    {
      module_id: "descriptors",
      bucket: "required",
      risk_channel: "c",
      outcome: "executed",
      reason: null,
      detail: null,
      version: "1",
    },
  ],
};

async function folder(t: { after: (fn: () => Promise<void>) => void }, files: Record<string, string>) {
  const root = await mkdtemp(join(tmpdir(), "svc-run-folder-"));
  t.after(() => rm(root, { recursive: true, force: true }));
  const runDir = join(root, "run-1");
  await mkdir(runDir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(runDir, path)), { recursive: true });
    await writeFile(join(runDir, path), text);
  }
  return runDir;
}

describe("readRunFolder", () => {
  it("returns the summary and the module plan typed, extra fields carried through", async (t) => {
    const runDir = await folder(t, {
      [RUN_FILES.summary]: JSON.stringify(SUMMARY),
      [runPath("modulePlan", { run_id: "run-1" })]: JSON.stringify(PLAN),
    });
    const run = readRunFolder(runDir);
    assert.equal(run.runId, "run-1");
    const summary = await run.summary();
    assert.equal(summary?.status, "completed");
    assert.equal(summary?.status === "completed" ? summary.compounds.total : null, 3);
    assert.equal((summary as Record<string, unknown>)?.inputs_sha256, HASH);
    assert.deepEqual(
      (await run.modulePlan())?.modules.map((entry) => [entry.module_id, entry.outcome]),
      [["descriptors", "executed"]],
    );
  });

  it("reads each file when its accessor is first called, and only once", async (t) => {
    const runDir = await folder(t, {});
    const run = readRunFolder(runDir);
    await writeFile(join(runDir, RUN_FILES.manifest), "not read yet");
    await mkdir(join(runDir, "results"));
    await writeFile(join(runDir, RUN_FILES.summary), JSON.stringify(SUMMARY));
    assert.equal((await run.summary())?.run_id, "run-1", "written after readRunFolder, read on call");
    await rm(join(runDir, RUN_FILES.summary));
    assert.equal((await run.summary())?.run_id, "run-1", "the first read is kept");
  });

  it("gives null for an absent file, and RUN_FILE_INVALID naming the file for one that is not JSON or not its shape", async (t) => {
    const runDir = await folder(t, {
      [RUN_FILES.summary]: "{ not json",
      [runPath("modulePlan", { run_id: "run-1" })]: JSON.stringify({ ...PLAN, modules: [{ module_id: 1 }] }),
    });
    const run = readRunFolder(runDir);
    assert.equal(await run.manifest(), null);
    assert.equal(await run.dockingResult(), null);
    await assert.rejects(
      run.summary(),
      (error: unknown) =>
        error instanceof CoreError &&
        error.code === "RUN_FILE_INVALID" &&
        error.message.startsWith("results/summary.json: not JSON"),
    );
    await assert.rejects(run.modulePlan(), /plans\/run-1_module_plan\.json: modules\.0\.module_id/);
  });

  it("refuses a file over maxJsonBytes without reading it", async (t) => {
    const runDir = await folder(t, { [RUN_FILES.summary]: JSON.stringify(SUMMARY) });
    await assert.rejects(readRunFolder(runDir, { maxJsonBytes: 100 }).summary(), /over the 100 read/);
  });

  it("says which sealed files seal/ lacks, and seal.json's id only when all three are there", async (t) => {
    const partial = await folder(t, {
      [RUN_FILES.sealJson]: JSON.stringify({ seal_id: "seal-9" }),
      [RUN_FILES.preseal]: "{}",
    });
    assert.deepEqual(await readRunFolder(partial).seal(), {
      files: ["seal/preseal.json", "seal/seal.json"],
      missing: ["seal/seal.sig", "seal/seal.svg"],
      sealId: null,
      presealed: true,
    });
    const sealed = await folder(t, {
      [RUN_FILES.sealJson]: JSON.stringify({ seal_id: "seal-9" }),
      [RUN_FILES.sealSignature]: "sig",
      [RUN_FILES.sealSvg]: "<svg/>",
    });
    const seal = await readRunFolder(sealed).seal();
    assert.equal(seal.sealId, "seal-9");
    assert.deepEqual(seal.missing, []);
    assert.equal(seal.presealed, false);
    const none = await folder(t, {});
    assert.deepEqual((await readRunFolder(none).seal()).files, []);
  });

  it("reads the status record beside the folder, and none that names another run", async (t) => {
    const runDir = await folder(t, {});
    const record = {
      schema: "svc.run-status/v1",
      run_id: "run-1",
      project_id: "demo",
      state: "succeeded",
      stage: "seal",
      counts: {
        rows: 1,
        rows_ok: 1,
        rows_invalid: 0,
        rows_unassessed: 0,
        compounds: 1,
        modules_executed: 1,
        modules_failed: 0,
      },
      seal: { status: "sealed", reason: null, seal_id: "seal-1" },
      exit_code: 0,
      reason: null,
      started_at: "2026-12-01T00:00:00Z",
      updated_at: "2026-12-01T00:00:00Z",
    };
    const path = runStatusPathOfRunDir(runDir);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(record));
    assert.equal((await readRunFolder(runDir).status())?.seal.status, "sealed");
    await writeFile(path, JSON.stringify({ ...record, run_id: "run-2" }));
    assert.equal(await readRunFolder(runDir).status(), null);
  });
});
