import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { dockingStructureResultSchema } from "@svc/core";
import { makeTempDir } from "@svc/testing";
import { parseSources } from "../inputs/sources.ts";
import { readStructureFile, stageStructures } from "../inputs/structure-inputs.ts";
import type { PortableCompound } from "../pool/portable-compound.ts";
import { molecularDockingModule } from "./molecular-docking-module.ts";
import type { StructureContext } from "./structure-module.ts";

// The science package's smallest PoseBusters fixture (1s3v, 186 Cα), its crystal ligand naming the pocket.
const FIXTURE = fileURLToPath(new URL("../../../science/test/fixtures/posebusters/1s3v/", import.meta.url));
const toolsMissing =
  spawnSync("vina", ["--version"]).status === 0 && spawnSync("obabel", ["-V"]).status === 0
    ? null
    : "vina or obabel missing (Debian autodock-vina, openbabel)";
if (toolsMissing !== null && process.env.CI === "true")
  throw new Error(`docking tools unavailable in CI: ${toolsMissing}`);

async function contextOf(
  t: { after: (fn: () => unknown) => void },
  mode: string,
  dockingMaxCompounds: number,
) {
  const dir = await makeTempDir("docking-module-", t);
  await copyFile(join(FIXTURE, "1s3v_protein_one_lig_removed.pdb"), join(dir, "receptor.pdb"));
  await copyFile(join(FIXTURE, "1s3v_ligand.sdf"), join(dir, "ligand.sdf"));
  const sources = parseSources(
    JSON.stringify({
      portfolio_selected_csv: "p.csv",
      pdbs: [{ file: "receptor.pdb", ligand: "ligand.sdf" }],
    }),
  );
  const [staged] = await stageStructures(dir, sources.pdbs);
  assert.ok(staged);
  const context: StructureContext = {
    staged,
    parsed: await readStructureFile(staged.path, staged.format),
    mode,
    runDir: dir,
    workDir: join(dir, "work"),
    dockingMaxCompounds,
  };
  return context;
}

const phenol = {
  ok: true,
  row: { candidateId: "phenol" },
  chem: { parent_smiles: "Oc1ccccc1" },
} as unknown as PortableCompound;

describe("molecular_docking: standard and deep differ in what they compute, and the cap is the runner's setting", {
  skip: toolsMissing ?? false,
}, () => {
  it("standard docks into the crystal receptor only with no rescorer; deep into it and its six ANM conformers with Vinardo and AD4", async (t) => {
    const standard = await molecularDockingModule.assessStructure(await contextOf(t, "standard", 100));
    assert.equal(standard.status, "prepared");
    if (standard.status !== "prepared") return;
    assert.deepEqual(standard.profile, {
      name: "standard",
      exhaustiveness: 8,
      ensemble_size: 1,
      rescorers: [],
    });
    assert.equal(standard.ensemble, null);
    // What the stage writes as the structure's result is what core's schema (and so the report) reads.
    dockingStructureResultSchema.parse(JSON.parse(JSON.stringify(standard)));
    const deep = await molecularDockingModule.assessStructure(await contextOf(t, "deep", 100));
    assert.equal(deep.status, "prepared");
    if (deep.status !== "prepared") return;
    assert.deepEqual(deep.profile, {
      name: "deep",
      exhaustiveness: 32,
      ensemble_size: 7,
      rescorers: ["vinardo", "ad4"],
    });
    assert.deepEqual(deep.ensemble?.receptors, [
      "crystal",
      "anm_mode_1_plus",
      "anm_mode_1_minus",
      "anm_mode_2_plus",
      "anm_mode_2_minus",
      "anm_mode_3_plus",
      "anm_mode_3_minus",
    ]);
    assert.equal(deep.ensemble?.eigenvalues.length, 3);
    assert.match(deep.ensemble?.rule ?? "", /by \+1 and −1 Å Cα RMSD/);
    dockingStructureResultSchema.parse(JSON.parse(JSON.stringify(deep)));
  });

  it("a compound past dockingMaxCompounds is not_assessed with reason cap, and 0 docks none", async (t) => {
    const context = await contextOf(t, "standard", 0);
    const setUp = await molecularDockingModule.assessStructure(context);
    const record = await molecularDockingModule.assessCompound?.(context, setUp, phenol);
    assert.deepEqual(record, { candidate_id: "phenol", status: "not_assessed", reason: "cap" });
  });

  it("a chunk docked in one vina --batch gives records equal, field for field, to each compound docked alone; the cap counts in portfolio order and the chunk's work files are removed", async (t) => {
    const toluene = {
      ok: true,
      row: { candidateId: "toluene" },
      chem: { parent_smiles: "Cc1ccccc1" },
    } as unknown as PortableCompound;
    const aniline = {
      ok: true,
      row: { candidateId: "aniline" },
      chem: { parent_smiles: "Nc1ccccc1" },
    } as unknown as PortableCompound;
    const unparsed = {
      ok: false,
      row: { candidateId: "bad" },
      error: "SMILES parse error",
    } as unknown as PortableCompound;
    const batched = await contextOf(t, "standard", 2);
    const setUp = await molecularDockingModule.assessStructure(batched);
    const chunk = await molecularDockingModule.assessCompounds?.(batched, setUp, [
      phenol,
      unparsed,
      toluene,
      aniline,
    ]);
    assert.deepEqual(
      chunk?.map((record) => [record.candidate_id, record.status, record.reason]),
      [
        ["phenol", "docked", null],
        ["bad", "not_assessed", "SMILES parse error"],
        ["toluene", "docked", null],
        ["aniline", "not_assessed", "cap"],
      ],
    );
    const alone = await contextOf(t, "standard", 2);
    const aloneSetUp = await molecularDockingModule.assessStructure(alone);
    for (const compound of [phenol, toluene]) {
      const single = await molecularDockingModule.assessCompound?.(alone, aloneSetUp, compound);
      const fromChunk: unknown = chunk?.find((record) => record.candidate_id === compound.row.candidateId);
      assert.deepEqual(fromChunk, single, `${compound.row.candidateId}: the same record from the batch`);
    }
    assert.deepEqual(
      await readdir(join(batched.workDir, "ligands")),
      [],
      "each chunk's work folder is removed",
    );
  });
});
