import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  displaceStructureText,
  ENSEMBLE_CALPHA_RMSD,
  ENSEMBLE_MODES,
  planAnmConformers,
} from "./anm-conformers.ts";

const PYTHON = "/usr/bin/python3";
const prodyMissing =
  spawnSync(PYTHON, ["-c", "import prody"]).status === 0 ? null : "Debian python3-prody is not installed";
if (prodyMissing !== null && process.env.CI === "true")
  throw new Error(`ProDy reference unavailable in CI: ${prodyMissing}`);

const RECEPTOR = fileURLToPath(
  new URL("../../test/fixtures/posebusters/1s3v/1s3v_protein_one_lig_removed.pdb", import.meta.url),
);

// ProDy's own conformer generator: traverseMode(mode, calphas, n_steps=1, rmsd=1) gives the
// conformers at −1 Å, 0 and +1 Å RMSD along each mode (the ANM ensembles of Bakan & Bahar,
// Pac. Symp. Biocomput. 2011).
const PRODY_TRAVERSE = `
import sys, json, prody
prody.confProDy(verbosity="none")
calphas = prody.parsePDB(sys.argv[1]).select("calpha")
anm = prody.ANM("receptor")
anm.buildHessian(calphas, cutoff=15.0, gamma=1.0)
anm.calcModes(n_modes=${ENSEMBLE_MODES})
out = []
for k in range(${ENSEMBLE_MODES}):
    sets = prody.traverseMode(anm[k], calphas, n_steps=1, rmsd=${ENSEMBLE_CALPHA_RMSD}).getCoordsets()
    out.append([sets[0].tolist(), sets[-1].tolist()])
print(json.dumps(out))
`;

const rmsd = (a: readonly (readonly number[])[], b: readonly (readonly number[])[]) =>
  Math.sqrt(
    a.reduce(
      (sum, p, i) => sum + (p as number[]).reduce((s, v, axis) => s + (v - (b[i]?.[axis] ?? 0)) ** 2, 0),
      0,
    ) / a.length,
  );

describe("the deep profile's receptor conformers along the lowest ANM modes", () => {
  const pdb = readFileSync(RECEPTOR, "utf8");
  const plan = planAnmConformers(pdb);

  it("plans a plus and a minus conformer per mode, each exactly 1 Å Cα RMSD from the crystal receptor", () => {
    assert.equal(plan.status, "planned");
    if (plan.status !== "planned") return;
    assert.deepEqual(
      plan.conformers.map((conformer) => conformer.label),
      [
        "anm_mode_1_plus",
        "anm_mode_1_minus",
        "anm_mode_2_plus",
        "anm_mode_2_minus",
        "anm_mode_3_plus",
        "anm_mode_3_minus",
      ],
    );
    for (const conformer of plan.conformers) {
      const moved = plan.calphas.map((p, i) => p.map((v, axis) => v + (conformer.shifts[i]?.[axis] ?? 0)));
      assert.ok(Math.abs(rmsd(moved, plan.calphas) - ENSEMBLE_CALPHA_RMSD) < 1e-9);
    }
  });

  it("equals ProDy's traverseMode conformers (rmsd 1 Å) on the 1s3v receptor within 0.01 Å", {
    skip: prodyMissing ?? false,
  }, () => {
    if (plan.status !== "planned") return assert.fail("not planned");
    const reference = JSON.parse(
      execFileSync(PYTHON, ["-c", PRODY_TRAVERSE, RECEPTOR], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }),
    ) as number[][][][];
    for (let k = 0; k < ENSEMBLE_MODES; k++) {
      const [plus, minus] = [plan.conformers[2 * k], plan.conformers[2 * k + 1]];
      const ours = (conformer: typeof plus) =>
        plan.calphas.map((p, i) => p.map((v, axis) => v + (conformer?.shifts[i]?.[axis] ?? 0)));
      const [first, last] = reference[k] as [number[][], number[][]];
      // A mode's sign is a convention: ours must match ProDy's pair one way round.
      const deviation = Math.min(
        Math.max(rmsd(ours(plus), last), rmsd(ours(minus), first)),
        Math.max(rmsd(ours(plus), first), rmsd(ours(minus), last)),
      );
      assert.ok(deviation < 0.01, `mode ${k + 1}: ${deviation} Å from ProDy`);
    }
  });

  it("moves every atom of a residue with its Cα, a residue without Cα with the nearest Cα, and keeps all other columns", () => {
    const text = [
      "ATOM      1  N   ALA A   1       0.000   1.000   0.000  0.00  0.00    -0.300 N ",
      "ATOM      2  CA  ALA A   1       0.000   0.000   0.000  0.00  0.00     0.100 C ",
      "ATOM      3  CA  GLY A   2       3.800   0.000   0.000  0.00  0.00     0.100 C ",
      "ATOM      4  CA  SER A   3       1.900   3.291   0.000  0.00  0.00     0.100 C ",
      "ATOM      5  CA  THR A   4       1.900   1.100   3.100  0.00  0.00     0.100 C ",
      "HETATM    6 ZN    ZN A 101       4.000   0.500   0.000  0.00  0.00     2.000 Zn",
      "TER",
    ].join("\n");
    const tiny = planAnmConformers(text);
    assert.equal(tiny.status, "planned");
    if (tiny.status !== "planned") return;
    const conformer = tiny.conformers[0];
    assert.ok(conformer);
    const out = displaceStructureText(text, tiny, conformer).split("\n");
    const xyz = (line: string) => [line.slice(30, 38), line.slice(38, 46), line.slice(46, 54)].map(Number);
    const shift = (a: string, b: string) => xyz(b).map((v, axis) => v - (xyz(a)[axis] ?? 0));
    const lines = text.split("\n");
    const close = (a: number[], b: readonly number[]) =>
      a.every((v, axis) => Math.abs(v - (b[axis] ?? 0)) < 0.002);
    assert.ok(close(shift(lines[0] ?? "", out[0] ?? ""), conformer.shifts[0] ?? []), "N moves with its CA");
    assert.ok(
      close(shift(lines[5] ?? "", out[5] ?? ""), conformer.shifts[1] ?? []),
      "Zn moves with the GLY CA",
    );
    for (const [at, line] of out.entries()) {
      assert.equal(line.slice(0, 30), lines[at]?.slice(0, 30));
      assert.equal(line.slice(54), lines[at]?.slice(54));
    }
  });

  it("refuses a network of fewer than three Cα atoms with the reason", () => {
    const plan = planAnmConformers(
      "ATOM      2  CA  ALA A   1       0.000   0.000   0.000  1.00  0.00           C\n",
    );
    assert.deepEqual(plan, { status: "not_planned", reason: "1 Cα atoms: too few for a network" });
  });
});
