import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { assertGeneratedBlock, makeTempDir } from "@svc/testing";
import { physicsToolsMissing } from "../../test/support/physics-tools.ts";
import {
  ligandsOf,
  PLB,
  spread,
  vinaReceptorOf,
  vinaScore,
} from "../../test/support/protein-ligand-benchmark.ts";
import { round } from "../numeric/round.ts";
import { spearman } from "../numeric/spearman.ts";
import { MM_GBSA_SETTINGS, prepareMmGbsaReceptor, scoreMmGbsa } from "./mm-gbsa.ts";
import { MM_GBSA_VALIDATION, MM_GBSA_VALIDATION_TARGETS } from "./mm-gbsa-validation.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const SOURCE = "packages/science/src/physics/mm-gbsa.validation.test.ts";

test("MM-GBSA and Vina rank the aligned ligands of four protein-ligand-benchmark series against their measured Ki: Spearman ρ per target, as recorded in docs/science.md", {
  timeout: 3_600_000,
}, async (t) => {
  if (physicsToolsMissing !== null) {
    t.skip(physicsToolsMissing);
    return;
  }
  const workDir = await makeTempDir("mm-gbsa-validation-", t);
  const rows: {
    target: string;
    available: number;
    scored: number;
    rhoMmGbsa: number;
    rhoVina: number;
    cpuPerLigand: number;
    substituted: number;
  }[] = [];
  for (const { target, ligands: count } of MM_GBSA_VALIDATION_TARGETS) {
    const all = ligandsOf(target);
    const chosen = spread(all, count);
    const dir = join(workDir, target);
    const receptor = await prepareMmGbsaReceptor(join(PLB, target, "protein.pdb"), dir);
    assert.equal(receptor.status, "prepared", `${target}: ${"reason" in receptor ? receptor.reason : ""}`);
    if (receptor.status !== "prepared") continue;
    // Vina's receptor: the same protein (waters left out, as in the MM model), Open Babel's rigid PDBQT.
    const receptorPdbqt = await vinaReceptorOf(target, dir);
    const paths = chosen.map((ligand) => {
      const path = join(dir, `${ligand.name}.sdf`);
      writeFileSync(path, ligand.sdf);
      return path;
    });
    // A budget no ligand here reaches: the figures must not depend on the machine's load.
    const scores = await scoreMmGbsa(receptor, paths, 600_000);
    const vina: number[] = [];
    for (const path of paths) vina.push(await vinaScore(receptorPdbqt, path));
    // A ligand the module cannot parameterise is not_assessed with its reason (counted, never dropped
    // silently); ρ is over the scored ones, Vina's on the same ligands.
    const kept = scores.flatMap((score, i) => (score.status === "assessed" ? [i] : []));
    for (const [i, score] of scores.entries())
      if (score.status !== "assessed")
        console.log(`# ${target} ${chosen[i]?.name}: not assessed: ${score.reason}`);
    assert.ok(kept.length >= chosen.length - 2, `${target}: at most two ligands not assessed`);
    const assessed = kept
      .map((i) => scores[i])
      .flatMap((score) => (score?.status === "assessed" ? [score] : []));
    const experimental = kept.map((i) => chosen[i]?.dgExp ?? Number.NaN);
    const vinaKept = kept.map((i) => vina[i] ?? Number.NaN);
    rows.push({
      target,
      available: all.length,
      scored: assessed.length,
      rhoMmGbsa: round(
        spearman(
          assessed.map((score) => score.score_kcal_mol),
          experimental,
        ) ?? Number.NaN,
        2,
      ),
      rhoVina: round(spearman(vinaKept, experimental) ?? Number.NaN, 2),
      cpuPerLigand: round(assessed.reduce((sum, score) => sum + score.cpu_seconds, 0) / assessed.length, 1),
      substituted: assessed.filter((score) => score.substituted_parameters.length > 0).length,
    });
    console.log(`# ${target}: ${JSON.stringify(rows.at(-1))}`);
  }
  const figures = Object.fromEntries(
    rows.map((row) => [row.target, { mm_gbsa: row.rhoMmGbsa, vina: row.rhoVina }]),
  );
  console.log(`# figures ${JSON.stringify(figures)}`);
  assertGeneratedBlock(
    DOCS,
    "mm-gbsa-plb",
    SOURCE,
    [
      `Aligned ligand poses as the benchmark gives them, scored as they are (MM-GBSA: ${MM_GBSA_SETTINGS.max_iterations} ` +
        `restrained minimisation steps, pocket ${MM_GBSA_SETTINGS.pocket_cutoff_angstrom} Å; Vina 1.2.3 ` +
        "`--score_only --autobox` on the same poses, receptor through Open Babel's rigid PDBQT); experimental ΔG = " +
        "RT ln Ki at 298.15 K from ligands.yml. Where a series has more ligands than scored here, the scored ones are " +
        "spread evenly over its measured range (sorted by ΔG, evenly spaced ranks) to keep the CPU modest. " +
        "Spearman ρ of each score with the experimental ΔG (positive: the score ranks as the measurements do):",
      "",
      "| target | ligands in the series | scored | ρ MM-GBSA | ρ Vina | ligands with a substituted GAFF parameter |",
      "|---|---|---|---|---|---|",
      ...rows.map(
        (row) =>
          `| ${row.target} | ${row.available} | ${row.scored} | ${row.rhoMmGbsa} | ${row.rhoVina} | ${row.substituted} |`,
      ),
    ].join("\n"),
  );
  assert.equal(rows.length, MM_GBSA_VALIDATION_TARGETS.length);
  assert.deepEqual(figures, MM_GBSA_VALIDATION);
});
