import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFile, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { dockingStructureResultSchema } from "@svc/core";
import { makeTempDir } from "@svc/testing";
import type { StructureCompound, StructureContext } from "../../define-structure-module.ts";
import { readSdfCoordinates } from "../molfile.ts";
import { parseStructure } from "../parse-structure.ts";
import { molecularDockingModule } from "./molecular-docking-module.ts";

// The science package's smallest PoseBusters fixture (1s3v, 186 Cα), its crystal ligand naming the pocket.
const FIXTURE = fileURLToPath(new URL("../../../test/fixtures/posebusters/1s3v/", import.meta.url));
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
  const receptor = join(dir, "receptor.pdb");
  await copyFile(join(FIXTURE, "1s3v_protein_one_lig_removed.pdb"), receptor);
  // Staged as the runner stages a receptor with a reference ligand beside it (sources.json pdbs[].ligand).
  const context: StructureContext = {
    staged: {
      index: 0,
      path: receptor,
      format: "pdb",
      pocket: {
        kind: "ligand",
        label: "1s3v_ligand.sdf",
        atoms: readSdfCoordinates(await readFile(join(FIXTURE, "1s3v_ligand.sdf"), "utf8")),
      },
      entry: { ligand: "1s3v_ligand.sdf" },
    },
    parsed: parseStructure(await readFile(receptor, "utf8"), "pdb"),
    mode,
    runDir: dir,
    workDir: join(dir, "work"),
    dockingMaxCompounds,
  };
  return context;
}

/** A parsed compound of the portfolio, row `index`. */
const parsed = (index: number, candidateId: string, smiles: string): StructureCompound => ({
  ok: true,
  row: { index, line: index + 1, candidateId, name: null, smiles, metadata: {} },
  chem: { parent_smiles: smiles },
});
const phenol = parsed(1, "phenol", "Oc1ccccc1");

describe("molecular_docking: standard and deep differ in what they compute, and the cap is the runner's setting", {
  skip: toolsMissing ?? false,
}, () => {
  it("standard docks into the crystal receptor only with no rescorer; deep into it and its six ANM conformers with Vinardo and AD4", async (t) => {
    const standard = (await molecularDockingModule.assessStructure(await contextOf(t, "standard", 100)))
      .result;
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
    const deep = (await molecularDockingModule.assessStructure(await contextOf(t, "deep", 100))).result;
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
    const run = await molecularDockingModule.assessStructure(context);
    const [record] = await run.assess([phenol]);
    assert.deepEqual(record, { candidate_id: "phenol", status: "not_assessed", reason: "cap" });
  });

  it("a chunk docked in one vina --batch gives records equal, field for field, to each compound docked alone; the cap counts in portfolio order and the chunk's work files are removed", async (t) => {
    const toluene = parsed(3, "toluene", "Cc1ccccc1");
    const aniline = parsed(4, "aniline", "Nc1ccccc1");
    const unparsed: StructureCompound = {
      ok: false,
      row: { index: 2, line: 3, candidateId: "bad", name: null, smiles: "C(", metadata: {} },
      error: "SMILES parse error",
    };
    const batched = await contextOf(t, "standard", 2);
    const chunk = await (await molecularDockingModule.assessStructure(batched)).assess([
      phenol,
      unparsed,
      toluene,
      aniline,
    ]);
    assert.deepEqual(
      chunk.map((record) => [record.candidate_id, record.status, record.reason]),
      [
        ["phenol", "docked", null],
        ["bad", "not_assessed", "SMILES parse error"],
        ["toluene", "docked", null],
        ["aniline", "not_assessed", "cap"],
      ],
    );
    const alone = await contextOf(t, "standard", 2);
    const aloneRun = await molecularDockingModule.assessStructure(alone);
    for (const compound of [phenol, toluene]) {
      const [single] = await aloneRun.assess([compound]);
      const fromChunk: unknown = chunk.find((record) => record.candidate_id === compound.row.candidateId);
      assert.deepEqual(fromChunk, single, `${compound.row.candidateId}: the same record from the batch`);
    }
    assert.deepEqual(
      await readdir(join(batched.workDir, "ligands")),
      [],
      "each chunk's work folder is removed",
    );
  });
});
