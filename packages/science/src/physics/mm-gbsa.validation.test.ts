import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { assertGeneratedBlock, makeTempDir } from "@svc/testing";
import { physicsToolsMissing } from "../../test/support/physics-tools.ts";
import {
  chosenLigands,
  ligandsOf,
  PLB,
  seriesCases,
  vinaReceptorOf,
  vinaScore,
} from "../../test/support/protein-ligand-benchmark.ts";
import {
  casesToCompute,
  type StoredAnswersOptions,
  settleAnswers,
} from "../../test/support/stored-answers.ts";
import { flatToolVersions } from "../../test/support/stored-answers-tools.ts";
import { round } from "../numeric/round.ts";
import { spearman } from "../numeric/spearman.ts";
import { MM_GBSA_SETTINGS, prepareMmGbsaReceptor, scoreMmGbsa } from "./mm-gbsa.ts";
import { MM_GBSA_VALIDATION, MM_GBSA_VALIDATION_TARGETS } from "./mm-gbsa-validation.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const SOURCE = "packages/science/src/physics/mm-gbsa.validation.test.ts";

/** What one ligand gives, stored per case (`<target>/<ligand>`); CPU times are left out. */
type MmGbsaCase =
  | { readonly status: "not_assessed"; readonly reason: string; readonly vina: number }
  | {
      readonly status: "assessed";
      readonly score_kcal_mol: number;
      readonly mm_kcal_mol: number;
      readonly solvation_kcal_mol: number;
      readonly ligand_shift_angstrom: number;
      readonly substituted_parameters: readonly string[];
      readonly vina: number;
    };

const chosenOf = (target: string) => chosenLigands(MM_GBSA_VALIDATION_TARGETS, target);

/**
 * Every case with what it is computed from; the sample: the middle ligand (the fifth of ten, by
 * measured ΔG) of each series, so every receptor is parameterised and one ligand of each scored
 * (about a sixth of the cost).
 */
const ANSWERS: StoredAnswersOptions = {
  name: "mm-gbsa",
  test: SOURCE,
  cases: seriesCases(MM_GBSA_VALIDATION_TARGETS, MM_GBSA_SETTINGS),
  sample: MM_GBSA_VALIDATION_TARGETS.map(({ target }) => `${target}/${chosenOf(target)[4]?.name}`),
  tools: () => flatToolVersions(["python.openmm", "python.parmed", "python.rdkit", "vina", "obabel"]),
};

test("MM-GBSA and Vina rank the aligned ligands of four protein-ligand-benchmark series against their measured Ki: Spearman ρ per target, as recorded in docs/science.md", {
  timeout: 3_600_000,
}, async (t) => {
  if (physicsToolsMissing !== null) {
    t.skip(physicsToolsMissing);
    return;
  }
  const workDir = await makeTempDir("mm-gbsa-validation-", t);
  const wanted = new Set(casesToCompute(ANSWERS));
  const computed = new Map<string, MmGbsaCase>();
  for (const { target } of MM_GBSA_VALIDATION_TARGETS) {
    const chosen = chosenOf(target).filter((ligand) => wanted.has(`${target}/${ligand.name}`));
    if (chosen.length === 0) continue;
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
    // A budget no ligand here reaches: the figures must not depend on the machine's load. Each ligand
    // is minimised on its own in the receptor, so its score does not depend on which others share the run.
    const scores = await scoreMmGbsa(receptor, paths, 600_000);
    for (const [i, score] of scores.entries()) {
      const vina = await vinaScore(receptorPdbqt, paths[i] as string);
      const id = `${target}/${chosen[i]?.name}`;
      computed.set(
        id,
        score.status === "assessed"
          ? {
              status: score.status,
              score_kcal_mol: score.score_kcal_mol,
              mm_kcal_mol: score.mm_kcal_mol,
              solvation_kcal_mol: score.solvation_kcal_mol,
              ligand_shift_angstrom: score.ligand_shift_angstrom,
              substituted_parameters: score.substituted_parameters,
              vina,
            }
          : { status: score.status, reason: score.reason, vina },
      );
      console.log(`# ${id}: ${JSON.stringify(computed.get(id))} ${score.cpu_seconds} CPU-s`);
    }
  }
  // Exact: one OpenMM CPU thread (mmgbsa.py), scores rounded to 0.01 kcal/mol; Vina's score_only is deterministic.
  const answers = await settleAnswers(ANSWERS, computed);
  const rows: {
    target: string;
    available: number;
    scored: number;
    rhoMmGbsa: number;
    rhoVina: number;
    substituted: number;
  }[] = [];
  for (const { target } of MM_GBSA_VALIDATION_TARGETS) {
    const chosen = chosenOf(target);
    const cases = chosen.map((ligand) => answers.get(`${target}/${ligand.name}`));
    // A ligand the module cannot parameterise is not_assessed with its reason (counted, never dropped
    // silently); ρ is over the scored ones, Vina's on the same ligands.
    for (const [i, answer] of cases.entries())
      if (answer?.status !== "assessed")
        console.log(
          `# ${target} ${chosen[i]?.name}: not assessed: ${answer && "reason" in answer ? answer.reason : "no answer"}`,
        );
    const kept = cases.flatMap((answer, i) => (answer?.status === "assessed" ? [i] : []));
    assert.ok(kept.length >= chosen.length - 2, `${target}: at most two ligands not assessed`);
    const assessed = cases.flatMap((answer) => (answer?.status === "assessed" ? [answer] : []));
    const experimental = kept.map((i) => chosen[i]?.dgExp ?? Number.NaN);
    rows.push({
      target,
      available: ligandsOf(target).length,
      scored: assessed.length,
      rhoMmGbsa: round(
        spearman(
          assessed.map((answer) => answer.score_kcal_mol),
          experimental,
        ) ?? Number.NaN,
        2,
      ),
      rhoVina: round(
        spearman(
          assessed.map((answer) => answer.vina),
          experimental,
        ) ?? Number.NaN,
        2,
      ),
      substituted: assessed.filter((answer) => answer.substituted_parameters.length > 0).length,
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
