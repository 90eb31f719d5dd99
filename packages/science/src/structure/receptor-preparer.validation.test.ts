import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "@svc/testing";
import { assertStructureToolsInCi, structureToolsMissing } from "../../test/support/structure-tools.ts";
import { parsePdb } from "./parse-pdb.ts";
import { createReceptorPreparer } from "./receptor-preparer.ts";
import { StructureError } from "./structure-error.ts";

const FIXTURES = fileURLToPath(new URL("../../test/fixtures/posebusters/", import.meta.url));
const skip = structureToolsMissing ?? false;

test("a receptor is prepared once per structure: PDBFixer adds hydrogens, the named ligand and buffer ions go, cofactors stay, the PDBQT and exact commands are recorded, and a preparation elsewhere under load gives the same bytes", {
  skip,
}, async (t) => {
  assertStructureToolsInCi();
  const dir = await makeTempDir("svc-receptor-", t);
  const preparer = createReceptorPreparer({ cacheDir: join(dir, "cache") });
  // 1ia1: DHFR with NADPH (NDP, a cofactor) and a second copy of the ligand TQ3.
  const source = join(FIXTURES, "1ia1/1ia1_protein_one_lig_removed.pdb");
  const both = await Promise.all([
    preparer.prepare(source, { removeHeterogens: ["TQ3"] }),
    preparer.prepare(source, { removeHeterogens: ["TQ3"] }),
  ]);
  // Either call may read the file first and start the job (the reads finish in any order under
  // load): exactly one prepares, the other shares its job.
  assert.deepEqual(
    both.map((prepared) => prepared.fromCache).sort(),
    [false, true],
    "one concurrent call prepares, the other shares its job",
  );
  const first = both.find((prepared) => !prepared.fromCache) as (typeof both)[number];
  assert.equal(both.find((prepared) => prepared.fromCache)?.pdbqtPath, first.pdbqtPath);
  assert.deepEqual(first.report.removed_heterogens, { TQ3: 1 });
  assert.ok(first.report.added_hydrogens > 3000, `${first.report.added_hydrogens} hydrogens`);
  const { atoms } = parsePdb(await readFile(first.pdbqtPath, "utf8"), "pdbqt");
  assert.ok(
    atoms.some((atom) => atom.resName === "NDP"),
    "the cofactor is kept",
  );
  assert.ok(!atoms.some((atom) => atom.resName === "TQ3"), "the ligand is removed");
  assert.equal(first.charges, "gasteiger");
  assert.deepEqual(
    first.invocations.map((call) => call.tool),
    ["pdbfixer", "obabel"],
  );
  assert.deepEqual(first.invocations[1]?.argv.slice(0, 5), [
    "obabel",
    "-ipdb",
    first.pdbPath,
    "-xr",
    "--partialcharge",
  ]);

  // Reproducible (issue 43): OpenMM's Reference platform, and no work-folder path in the PDBQT, so a
  // preparation in another folder, with the other core busy, gives the same bytes.
  assert.equal(first.report.openmm_platform, "Reference");
  const busy = spawn(process.execPath, ["-e", "for(;;);"], { stdio: "ignore" });
  let elsewhere: Awaited<ReturnType<ReturnType<typeof createReceptorPreparer>["prepare"]>>;
  try {
    elsewhere = await createReceptorPreparer({ cacheDir: join(dir, "elsewhere") }).prepare(source, {
      removeHeterogens: ["TQ3"],
    });
  } finally {
    busy.kill();
  }
  assert.notEqual(elsewhere.pdbqtPath, first.pdbqtPath);
  assert.ok((await readFile(elsewhere.pdbPath)).equals(await readFile(first.pdbPath)), "the same PDB");
  assert.ok((await readFile(elsewhere.pdbqtPath)).equals(await readFile(first.pdbqtPath)), "the same PDBQT");

  // The same bytes under another name, in a new preparer on the same cache dir: not prepared again.
  const copy = join(dir, "renamed.pdb");
  await copyFile(source, copy);
  const again = await createReceptorPreparer({ cacheDir: join(dir, "cache") }).prepare(copy, {
    removeHeterogens: ["TQ3"],
  });
  assert.equal(again.fromCache, true);
  assert.equal(again.pdbqtPath, first.pdbqtPath);
  assert.equal(again.structureSha256, first.structureSha256);
});

test("a structure PDBFixer cannot read fails with STRUCTURE_RECEPTOR_PREPARATION_FAILED naming the file", {
  skip,
}, async (t) => {
  assertStructureToolsInCi();
  const dir = await makeTempDir("svc-receptor-", t);
  const broken = join(FIXTURES, "1ia1/1ia1_ligand.sdf");
  await assert.rejects(
    createReceptorPreparer({ cacheDir: dir }).prepare(broken),
    (error: unknown) =>
      error instanceof StructureError &&
      error.code === "STRUCTURE_RECEPTOR_PREPARATION_FAILED" &&
      error.message.includes(broken),
  );
});
