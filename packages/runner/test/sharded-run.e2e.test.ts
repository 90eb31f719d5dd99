import assert from "node:assert/strict";
import { copyFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { listUncoveredPaths } from "@svc/core";
import { assertSameOutputsAcrossServices } from "./support/comparable-outputs.ts";
import { entitlementForFile, runOnAnotherService } from "./support/entitlement-harness.ts";
import { stageNci as stageNciLines } from "./support/nci-portfolio.ts";
import { REPO, runArgs, runCli } from "./support/run-cli.ts";
import { readJson, verifyRunSeal } from "./support/run-folder.ts";
import { stageWithPortfolio } from "./support/stage-portfolio.ts";

const PRINCIPAL = "shards@example.com";
const stand = entitlementForFile(PRINCIPAL, 2);

/** 150 NCI molecules (Debian rdkit-data) plus two that do not parse. */
const stageNci = (t: { after: (fn: () => Promise<void>) => void }) =>
  stageNciLines(t, 150, { at: 10, lines: ["not-a-smiles bad1", "C1CC bad2"] });

function args(
  staged: { inputRoot: string; outputRoot: string },
  url: string,
  extra: string[] = [],
  runId = "run_sharded",
) {
  return runArgs({ runId, staged, entitlementUrl: url, extra: ["--workers", "1", ...extra] });
}

/** Runs left to the principal (asked for a run id that is never used). */
const runsRemaining = async () => (await stand.service.check(stand.token, "run_other")).runs_remaining;

test("three pods of an Indexed Job (JOB_COMPLETION_INDEX) make one run: one consume, one seal, outputs equal to one pod's", async (t) => {
  const staged = await stageNci(t);
  stand.proxy.paths.length = 0;
  const pods = await Promise.all(
    [2, 1, 0].map((index) =>
      runCli(args(staged, stand.proxy.url, ["--shards", "3"]), {
        SVC_DEV_TOKEN: stand.token,
        JOB_COMPLETION_INDEX: String(index),
      }),
    ),
  );
  for (const pod of pods) assert.equal(pod.code, 0, pod.stderr);
  assert.match(pods[0]?.stderr ?? "", /shard finished; index 0 seals the run/);
  assert.equal(await runsRemaining(), 1, "one run consumed by three pods");
  assert.equal(
    stand.proxy.paths.filter((path) => path === "/api/entitlement/run_complete").length,
    1,
    "one run_complete",
  );
  const runDir = join(staged.outputRoot, "run_sharded");
  await assert.rejects(stat(join(runDir, "shards")), { code: "ENOENT" }, "slices removed after the merge");
  const verification = await verifyRunSeal(runDir, await stand.service.trustedKeys());
  assert.equal(verification.state, "VERIFIED", verification.reason);
  // No pod's .scratch-<k> or an empty folder is left beside the sealed outputs (issue 23 item 2).
  assert.deepEqual(await listUncoveredPaths(runDir, "sealed"), []);

  // The same run in one process, against a second service: equal outputs but named fields.
  const reference = await stageNci(t);
  const single = await runOnAnotherService(t, PRINCIPAL, (url) => args(reference, url));
  assert.equal(single.code, 0, single.stderr);
  await assertSameOutputsAcrossServices(runDir, join(reference.outputRoot, "run_sharded"), "run_sharded");
  const validation = JSON.parse(await readFile(join(runDir, "inputs", "validation.json"), "utf8"));
  assert.deepEqual(
    validation.rows
      .slice(9, 13)
      .map((row: { candidate_id: string; status: string }) => [row.candidate_id, row.status]),
    [
      ["10", "ok"],
      ["bad1", "invalid"],
      ["bad2", "invalid"],
      ["11", "ok"],
    ],
    "portfolio order across the slices",
  );
});

test("sharded pods refuse a bad portfolio together, before any entitlement call, and leave no run folder", async (t) => {
  const staged = await stageNci(t);
  stand.proxy.paths.length = 0;
  const pods = await Promise.all(
    [1, 0].map((index) =>
      runCli(args(staged, stand.proxy.url, ["--shards", "2", "--max-invalid-fraction", "0.001"]), {
        SVC_DEV_TOKEN: stand.token,
        JOB_COMPLETION_INDEX: String(index),
      }),
    ),
  );
  for (const pod of pods) {
    assert.equal(pod.code, 2, pod.stderr);
    assert.match(pod.stderr, /PORTFOLIO_INVALID: 2 of 152 rows/);
  }
  assert.deepEqual(stand.proxy.paths, []);
  await assert.rejects(stat(join(staged.outputRoot, "run_sharded")), { code: "ENOENT" });
});

// Issue 39 item 2: docking split by compound across the pods. Four small ligands keep Vina short;
// a receptor staged with its crystal ligand puts the run in the structure category, so it docks.
const DEMO = join(REPO, "examples", "structure-demo", "01_sources");
const DOCKED = ["phenol", "toluene", "aniline", "benzoic-acid"];
const DOCKING_PORTFOLIO = `candidate_id,name,smiles
phenol,,Oc1ccccc1
toluene,,Cc1ccccc1
aniline,,Nc1ccccc1
benzoic-acid,,OC(=O)c1ccccc1
`;

test("two pods of a sharded run dock a structure's compounds once each, each pod its own slice, and index 0 writes one merged results/molecular_docking.json in portfolio order", async (t) => {
  const staged = await stageWithPortfolio(DOCKING_PORTFOLIO, t);
  const sources = join(staged.projectDir, "01_sources");
  for (const file of ["1s3v_protein_one_lig_removed.pdb", "1s3v_ligand.sdf"])
    await copyFile(join(DEMO, file), join(sources, file));
  await writeFile(
    join(sources, "sources.json"),
    JSON.stringify({
      portfolio_selected_csv: "portfolio_selected.csv",
      pdbs: [{ file: "1s3v_protein_one_lig_removed.pdb", ligand: "1s3v_ligand.sdf", target: "DHFR" }],
    }),
  );
  const pods = await Promise.all(
    [1, 0].map((index) =>
      // its own run id: the file's other tests seal run_sharded on the same entitlement service
      runCli(
        args(staged, stand.proxy.url, ["--shards", "2", "--log-format", "json"], "run_sharded_docking"),
        {
          SVC_DEV_TOKEN: stand.token,
          JOB_COMPLETION_INDEX: String(index),
        },
      ),
    ),
  );
  for (const pod of pods) assert.equal(pod.code, 0, pod.stderr);
  // Each pod says how much of its own slice it docked: rows 2 and 4 are pod 1's, 1 and 3 index 0's.
  const work = (stderr: string) =>
    stderr
      .split("\n")
      .filter((line) => line.includes('"structure module work"') && line.includes("molecular_docking"))
      .map((line) => JSON.parse(line) as { assessed: number; expected: number; shard?: unknown });
  assert.deepEqual(
    work(pods[0]?.stderr ?? "").map((entry) => [entry.assessed, entry.expected, entry.shard]),
    [[2, 2, 1]],
    `pod 1 docked its two compounds: ${pods[0]?.stderr.slice(-3000)}`,
  );
  assert.deepEqual(
    work(pods[1]?.stderr ?? "").map((entry) => [entry.assessed, entry.expected, entry.shard]),
    [
      [2, 2, 0],
      [4, 4, "merged"],
    ],
  );
  const runDir = join(staged.outputRoot, "run_sharded_docking");
  const docking = await readJson(join(runDir, "results", "molecular_docking.json"));
  const compounds = docking.structures[0].compounds as {
    candidate_id: string;
    status: string;
    pose_file: string;
  }[];
  assert.deepEqual(
    compounds.map((compound) => [compound.candidate_id, compound.status]),
    DOCKED.map((id) => [id, "docked"]),
    "each compound once, in portfolio order",
  );
  for (const compound of compounds) assert.ok((await stat(join(runDir, compound.pose_file))).size > 0);
  await assert.rejects(stat(join(runDir, "shards")), { code: "ENOENT" }, "slices removed after the merge");
  const verification = await verifyRunSeal(runDir, await stand.service.trustedKeys());
  assert.equal(verification.state, "VERIFIED", verification.reason);
  assert.deepEqual(await listUncoveredPaths(runDir, "sealed"), []);
});
