import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { crypticPocketsStructureResultSchema } from "@svc/core";
import { makeTempDir } from "@svc/testing";
import type { StructureContext } from "../../define-structure-module.ts";
import { analyseCrypticPockets, crypticHint } from "../cryptic-pockets.ts";
import { readSdfCoordinates } from "../molfile.ts";
import { parseStructure } from "../parse-structure.ts";
import { nearestDistance } from "../pocket.ts";
import { crypticPocketsModule } from "./cryptic-pockets-module.ts";

// The science package's smallest PoseBusters receptor (1s3v, DHFR, 186 Cα), its crystal ligand naming the pocket.
const DATA = fileURLToPath(new URL("../../../data/", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/posebusters/", import.meta.url));
const concavityMissing =
  spawnSync("concavity", []).error === undefined ? null : "Debian concavity is not installed";
if (concavityMissing !== null && process.env.CI === "true")
  throw new Error(`concavity unavailable in CI: ${concavityMissing}`);

async function contextOf(t: { after: (fn: () => unknown) => void }, mode: string): Promise<StructureContext> {
  const dir = await makeTempDir("cryptic-module-", t);
  const receptor = join(dir, "receptor.pdb");
  await copyFile(join(DATA, "1s3v_protein_one_lig_removed.pdb"), receptor);
  return {
    staged: {
      index: 0,
      path: receptor,
      format: "pdb",
      pocket: {
        kind: "ligand",
        label: "1s3v_ligand.sdf",
        atoms: readSdfCoordinates(await readFile(join(DATA, "1s3v_ligand.sdf"), "utf8")),
      },
      entry: { ligand: "1s3v_ligand.sdf" },
    },
    parsed: parseStructure(await readFile(receptor, "utf8"), "pdb"),
    mode,
    runDir: dir,
    workDir: join(dir, "work"),
    dockingMaxCompounds: 1,
  };
}

describe("cryptic_pockets on the 1s3v receptor", { skip: concavityMissing ?? false }, () => {
  it("deep: ConCavity runs on the crystal receptor and its six ANM conformers; the largest crystal cavity is at the docking pocket and lined by most residues that touch the crystal ligand", async (t) => {
    const context = await contextOf(t, "deep");
    const run = await crypticPocketsModule.assessStructure(context);
    const result = run.result;
    assert.equal(result.status, "executed");
    if (result.status !== "executed") return;
    assert.equal(result.risk, "EXPLORATORY");
    assert.equal(result.calpha_count, 186);
    assert.equal(result.docking_pocket, "reference ligand 1s3v_ligand.sdf");
    assert.equal(result.cost.concavity_runs, 7);
    assert.deepEqual(
      result.conformers.map((conformer) => conformer.label),
      [1, 2, 3].flatMap((mode) => [`anm_mode_${mode}_plus`, `anm_mode_${mode}_minus`]),
    );
    const [top] = result.crystal;
    assert.equal(top?.rank, 1);
    assert.equal(top?.at_docking_pocket, true);
    // The residues with a heavy atom within 4 Å of the crystal ligand: at least three quarters line the cavity.
    const ligand = context.staged.pocket?.kind === "ligand" ? context.staged.pocket.atoms : [];
    const touching = new Set(
      context.parsed.atoms
        .filter((atom) => !atom.hetero && atom.element !== "H" && nearestDistance(atom.position, ligand) <= 4)
        .map((atom) => `${atom.resName}:${atom.chain}:${atom.resSeq}${atom.iCode}`),
    );
    const lined = [...touching].filter((residue) => top?.lining_residues.includes(residue));
    assert.ok(touching.size >= 10, `${touching.size} residues touch the ligand`);
    assert.ok(lined.length >= 0.75 * touching.size, `lined ${lined.length} of ${[...touching].join(" ")}`);
    // Every transient cavity is one a conformer opened and carries the hint wording.
    for (const cavity of result.transient) {
      assert.equal(cavity.hint, crypticHint(cavity.modes));
      assert.ok(cavity.crystal_overlap < 0.3);
      assert.ok(cavity.opened_in.length >= 1);
    }
    assert.match(result.summary, /transient cavit|no transient cavity/);
    // The record goes to results/cryptic_pockets.json as it is, in the shape core's schema holds the
    // report to (docs/contracts/cryptic-pockets-result.md).
    assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
    assert.deepEqual(crypticPocketsStructureResultSchema.parse(JSON.parse(JSON.stringify(result))), result);
  });

  it("standard: not assessed, saying it is deep only and why (its cost), without running ConCavity", async (t) => {
    const context = await contextOf(t, "standard");
    const run = await crypticPocketsModule.assessStructure(context);
    assert.equal(run.result.status, "not_assessed");
    if (run.result.status !== "not_assessed") return;
    assert.match(run.result.reason, /^deep profile only: seven ConCavity runs/);
    assert.deepEqual(crypticPocketsStructureResultSchema.parse(run.result), run.result);
    assert.equal(run.result.calpha_count, 186);
    assert.equal(crypticPocketsModule.compounds, null);
    assert.equal(crypticPocketsModule.callsTools, true);
  });

  it("1ia1 (the PoseBusters fixture, 384 Cα): a cavity some conformers open and no crystal cavity overlaps is reported transient, with the conformers and modes that open it, its lining residues and the hint", async (t) => {
    const dir = await makeTempDir("cryptic-1ia1-", t);
    const structure = parseStructure(
      await readFile(join(FIXTURES, "1ia1/1ia1_protein_one_lig_removed.pdb"), "utf8"),
      "pdb",
    );
    const ligand = readSdfCoordinates(await readFile(join(FIXTURES, "1ia1/1ia1_ligand.sdf"), "utf8"));
    const result = await analyseCrypticPockets(
      structure,
      { kind: "ligand", label: "TQ3", atoms: ligand },
      dir,
    );
    assert.equal(result.status, "executed");
    if (result.status !== "executed") return;
    assert.ok(result.transient.length >= 1, result.summary);
    const labels = new Set(result.conformers.map((conformer) => conformer.label));
    const opened = result.conformers.reduce((total, conformer) => total + conformer.transient, 0);
    // Overlapping transient cavities of several conformers are one: never more groups than cavities.
    assert.ok(result.transient.length <= opened);
    assert.equal(
      result.transient.reduce((total, cavity) => total + cavity.opened_in.length, 0),
      opened,
    );
    for (const cavity of result.transient) {
      for (const label of cavity.opened_in) assert.ok(labels.has(label), label);
      assert.deepEqual(
        cavity.modes,
        [...new Set(cavity.opened_in.map((label) => Number(/anm_mode_(\d+)_/.exec(label)?.[1])))].sort(),
      );
      assert.ok(cavity.crystal_overlap < 0.3);
      assert.ok(cavity.lining_residues.length > 0);
      assert.equal(typeof cavity.at_docking_pocket, "boolean");
      assert.equal(cavity.hint, crypticHint(cavity.modes));
    }
    assert.match(
      result.summary,
      /transient cavit(y|ies) in the 6 ANM conformers, \d+ at the docking pocket: each a cavity that opens along a normal mode/,
    );
    assert.deepEqual(crypticPocketsStructureResultSchema.parse(JSON.parse(JSON.stringify(result))), result);
    t.diagnostic(
      `${result.summary.split(":")[0]}; ConCavity CPU ${result.cost.concavity_cpu_s} s as read, wall ${result.cost.wall_s} s`,
    );
  });
});
