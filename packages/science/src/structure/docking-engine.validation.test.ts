import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempDir, type TempDir } from "@svc/testing";
import { assertStructureToolsInCi, structureToolsMissing } from "../../test/support/structure-tools.ts";
import { ENSEMBLE_MODES } from "./anm-conformers.ts";
import { DEEP_RESCORERS } from "./consensus-score.ts";
import {
  createVinaDockingEngine,
  DEEP_EXHAUSTIVENESS,
  DOCKING_POSES,
  STANDARD_EXHAUSTIVENESS,
  vinaDockingArgs,
} from "./docking-engine.ts";
import { createLigandPreparer, type PreparedLigandOk } from "./ligand-preparer.ts";
import { type MolfileMolecule, parseSdf, withoutHydrogens } from "./molfile.ts";
import { type PocketBox, pocketBoxFromLigand } from "./pocket-box.ts";
import { buildReceptorEnsemble } from "./receptor-ensemble.ts";
import { createReceptorPreparer, type PreparedReceptor } from "./receptor-preparer.ts";
import { StructureError } from "./structure-error.ts";

// 1s3v (PoseBusters fixture, the smallest receptor) with phenol, a ligand with one torsion, so the
// deep profile's exhaustiveness 32 stays cheap.
const FIXTURES = fileURLToPath(new URL("../../test/fixtures/posebusters/", import.meta.url));
const skip = structureToolsMissing ?? false;

let dir: TempDir;
let receptor: PreparedReceptor;
let ligand: PreparedLigandOk;
let box: PocketBox;

before(async () => {
  if (skip) return;
  assertStructureToolsInCi();
  dir = await createTempDir("svc-docking-");
  receptor = await createReceptorPreparer({ cacheDir: join(dir.path, "receptors") }).prepare(
    join(FIXTURES, "1s3v/1s3v_protein_one_lig_removed.pdb"),
  );
  const prepared = await createLigandPreparer({ workDir: join(dir.path, "ligands") }).prepare({
    id: "phenol",
    smiles: "Oc1ccccc1",
  });
  assert.equal(prepared.status, "prepared");
  ligand = prepared as PreparedLigandOk;
  const crystal = parseSdf(readFileSync(join(FIXTURES, "1s3v/1s3v_ligand.sdf"), "utf8"))[0];
  box = pocketBoxFromLigand(withoutHydrogens(crystal as MolfileMolecule).atoms.map((atom) => atom.position));
});

test.after(() => dir?.remove());

test("standard docking records its seed and settings, scores up to 9 poses, and returns the top pose as SDF with LE and pose checks", {
  skip,
}, async () => {
  const engine = createVinaDockingEngine({ workDir: join(dir.path, "standard"), seed: 7 });
  const result = await engine.dock({ ligand, receptor, box });
  assert.equal(result.status, "docked", JSON.stringify(result));
  if (result.status !== "docked") return;
  assert.deepEqual(result.settings, {
    seed: 7,
    exhaustiveness: STANDARD_EXHAUSTIVENESS,
    numModes: DOCKING_POSES,
    cpu: 1,
    cpuBudgetS: 600,
    timeoutMs: 2_400_000,
    scoring: "vina",
  });
  const vinaArgv = result.invocations[0]?.argv ?? [];
  assert.deepEqual(vinaArgv.slice(vinaArgv.indexOf("--seed"), vinaArgv.indexOf("--seed") + 4), [
    "--seed",
    "7",
    "--exhaustiveness",
    "8",
  ]);
  assert.ok(result.poses.length >= 1 && result.poses.length <= 9);
  assert.equal(result.score, result.poses[0]?.score);
  assert.ok(result.score < 0);
  assert.equal(result.ligandEfficiency, Math.round((-result.score / 7) * 1000) / 1000);
  const [top] = parseSdf(result.topPoseSdf);
  assert.equal(top?.atoms.filter((atom) => atom.element !== "H").length, 7);
  assert.equal(parseSdf(readFileSync(result.posesSdfPath, "utf8")).length, result.poses.length);
  assert.deepEqual(
    result.poseChecks.checks.map((check) => check.name),
    ["bond_lengths", "bond_angles", "internal_steric_clash", "minimum_distance_to_protein", "inside_box"],
  );
  assert.equal(result.poseChecks.passed, true, JSON.stringify(result.poseChecks));
  assert.equal(result.consensus, null, "standard does not rescore");
  assert.deepEqual(result.profile, { name: "standard", exhaustiveness: 8, ensembleSize: 1, rescorers: [] });
  assert.deepEqual(
    result.receptorScores.map((entry) => [entry.label, entry.score]),
    [["crystal", result.score]],
  );
});

test("deep docking docks into the crystal receptor and its ANM conformers, rescores the best pose with Vinardo and AD4, and records each receptor's score, the consensus and the profile", {
  skip,
}, async () => {
  const ensemble = await buildReceptorEnsemble(receptor, join(dir.path, "ensemble"));
  assert.equal(ensemble.reason, null);
  assert.equal(ensemble.receptors.length, 1 + 2 * ENSEMBLE_MODES);
  // Exhaustiveness 4, not the deep profile's 32: this proves the plumbing, the search effort is a constant.
  const engine = createVinaDockingEngine({ workDir: join(dir.path, "deep"), exhaustiveness: 4 });
  const [crystal, ...conformers] = ensemble.receptors;
  const result = await engine.dock({
    ligand,
    receptor: crystal ?? receptor,
    box,
    profile: "deep",
    ensemble: conformers,
  });
  assert.equal(result.status, "docked", JSON.stringify(result));
  if (result.status !== "docked") return;
  assert.deepEqual(result.profile, {
    name: "deep",
    exhaustiveness: 4,
    ensembleSize: 7,
    rescorers: DEEP_RESCORERS,
  });
  assert.deepEqual(
    result.receptorScores.map((entry) => entry.label),
    ["crystal", ...conformers.map((conformer) => conformer.label)],
  );
  assert.ok(result.receptorScores.every((entry) => typeof entry.score === "number"));
  const best = Math.min(...result.receptorScores.map((entry) => entry.score as number));
  assert.equal(result.score, best);
  assert.equal(result.receptorLabel, result.receptorScores.find((entry) => entry.score === best)?.label);
  const consensus = result.consensus;
  assert.ok(consensus);
  assert.equal(consensus.receptor, result.receptorLabel);
  assert.equal(consensus.vina, result.score);
  assert.equal(typeof consensus.vinardo, "number", JSON.stringify(consensus));
  assert.equal(typeof consensus.ad4, "number", JSON.stringify(consensus));
  assert.ok((consensus.ad4 as number) < 0, "phenol in its pocket binds by AD4 too");
  assert.deepEqual(consensus.scorersUsed, ["vina", "vinardo", "ad4"]);
  const mean = (consensus.vina + (consensus.vinardo as number) + (consensus.ad4 as number)) / 3;
  assert.equal(consensus.consensus, Math.round(mean * 1000) / 1000);
  assert.ok(result.invocations.some((call) => call.tool === "autogrid4"));
  assert.ok(result.invocations.some((call) => call.argv.includes("ad4") && call.argv.includes("--maps")));
  assert.ok(
    result.invocations.some((call) => call.argv.includes("vinardo") && call.argv.includes("--score_only")),
  );
});

test("the deep profile's own exhaustiveness is 32 and standard's is 8 when nothing overrides them", {
  skip,
}, async () => {
  const engine = createVinaDockingEngine({ workDir: join(dir.path, "timeout-profile"), timeoutMs: 1 });
  const deep = await engine.dock({ ligand, receptor, box, profile: "deep" });
  const standard = await engine.dock({ ligand, receptor, box });
  const exhaustivenessOf = (argv: readonly string[] | undefined) =>
    argv?.[argv.indexOf("--exhaustiveness") + 1];
  assert.equal(exhaustivenessOf(deep.invocations[0]?.argv), String(DEEP_EXHAUSTIVENESS));
  assert.equal(exhaustivenessOf(standard.invocations[0]?.argv), String(STANDARD_EXHAUSTIVENESS));
});

test("a Vina run past its time budget is killed and the compound is unassessed with the reason", {
  skip,
}, async () => {
  const engine = createVinaDockingEngine({ workDir: join(dir.path, "timeout"), timeoutMs: 1 });
  const result = await engine.dock({ ligand, receptor, box });
  assert.equal(result.status, "unassessed");
  if (result.status === "unassessed")
    assert.match(result.reason, /vina exceeded its time budget of 1 ms and was killed/);
});

test("a Vina run past its CPU-time budget is stopped by the kernel (SIGXCPU) and the compound is unassessed with the reason", {
  skip,
}, async () => {
  // Exhaustiveness 64 needs well over one CPU-second on this ligand, however busy the machine.
  const engine = createVinaDockingEngine({
    workDir: join(dir.path, "cpu"),
    cpuBudgetS: 1,
    exhaustiveness: 64,
  });
  const result = await engine.dock({ ligand, receptor, box });
  assert.equal(result.status, "unassessed");
  if (result.status === "unassessed")
    assert.equal(result.reason, "vina exceeded its CPU-time budget of 1 s and was stopped");
});

test("a Vina run that fails (an unreadable ligand PDBQT) makes that compound unassessed, not an exception", {
  skip,
}, async () => {
  const broken = join(dir.path, "broken.pdbqt");
  writeFileSync(broken, "ROOT\nATOM  garbage\nENDROOT\n");
  const engine = createVinaDockingEngine({ workDir: join(dir.path, "crash") });
  const result = await engine.dock({ ligand: { ...ligand, id: "broken", pdbqtPath: broken }, receptor, box });
  assert.equal(result.status, "unassessed");
  if (result.status === "unassessed") {
    assert.match(result.reason, /^vina exited with status \d+/);
    assert.equal(result.id, "broken");
  }
});

test("a missing vina program makes the compound unassessed with the reason", { skip }, async () => {
  const engine = createVinaDockingEngine({
    workDir: join(dir.path, "missing"),
    vinaPath: join(dir.path, "no-such-vina"),
  });
  const result = await engine.dock({ ligand, receptor, box });
  assert.equal(result.status, "unassessed");
  if (result.status === "unassessed") assert.match(result.reason, /vina could not be started/);
});

test("dockBatch docks several ligands in one vina --batch per receptor with the same poses, byte for byte, as the vina CLI run per compound at the same seed", {
  skip,
}, async () => {
  const more = await createLigandPreparer({ workDir: join(dir.path, "ligands") }).prepare({
    id: "toluene",
    smiles: "Cc1ccccc1",
  });
  assert.equal(more.status, "prepared");
  const ligands = [ligand, more as PreparedLigandOk];
  // Exhaustiveness 2: the plumbing and the identity are what is proved, not the search.
  const engine = createVinaDockingEngine({ workDir: join(dir.path, "batch"), exhaustiveness: 2 });
  const results = await engine.dockBatch(ligands.map((entry) => ({ ligand: entry, receptor, box })));
  assert.deepEqual(
    results.map((result) => result.id),
    ["phenol", "toluene"],
  );
  for (const [index, result] of results.entries()) {
    assert.equal(result.status, "docked", JSON.stringify(result));
    if (result.status !== "docked") continue;
    assert.ok(result.invocations[0]?.argv.includes("--batch"), "one vina --batch ran");
    const cli = join(dir.path, `cli-${index}.pdbqt`);
    const settings = { seed: 42, exhaustiveness: 2, numModes: DOCKING_POSES, cpu: 1 };
    const args = vinaDockingArgs(
      receptor.pdbqtPath,
      (ligands[index] as PreparedLigandOk).pdbqtPath,
      box,
      settings,
      cli,
    );
    execFileSync("vina", args, { stdio: "ignore" });
    assert.equal(readFileSync(result.vinaOutPath, "utf8"), readFileSync(cli, "utf8"));
  }
});

test("a ligand vina --batch cannot dock is docked alone after the batch fails, and only that compound is unassessed", {
  skip,
}, async () => {
  const broken = join(dir.path, "broken-batch.pdbqt");
  writeFileSync(broken, "ROOT\nATOM  garbage\nENDROOT\n");
  const engine = createVinaDockingEngine({ workDir: join(dir.path, "batch-crash"), exhaustiveness: 1 });
  const [first, second] = await engine.dockBatch([
    { ligand, receptor, box },
    { ligand: { ...ligand, id: "broken", pdbqtPath: broken }, receptor, box },
  ]);
  assert.equal(first?.status, "docked", JSON.stringify(first));
  assert.equal(second?.status, "unassessed");
  if (second?.status === "unassessed") assert.match(second.reason, /^vina exited with status \d+/);
});

test("dockBatch refuses requests for different boxes with STRUCTURE_DOCKING_BATCH_MIXED", {
  skip,
}, async () => {
  const engine = createVinaDockingEngine({ workDir: join(dir.path, "batch-mixed") });
  const other = { ...box, center: [box.center[0] + 1, box.center[1], box.center[2]] as const };
  await assert.rejects(
    engine.dockBatch([
      { ligand, receptor, box },
      { ligand, receptor, box: other },
    ]),
    (error: unknown) => error instanceof StructureError && error.code === "STRUCTURE_DOCKING_BATCH_MIXED",
  );
});
