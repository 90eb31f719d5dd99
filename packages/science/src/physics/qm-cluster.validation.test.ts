import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
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
import { prepareMmGbsaReceptor } from "./mm-gbsa.ts";
import { QM_CLUSTER_SETTINGS } from "./qm-cluster.ts";
import { scoreQmCluster } from "./qm-cluster-energy.ts";
import {
  QM_CLUSTER_VALIDATION,
  QM_CLUSTER_VALIDATION_TARGETS,
  type QmClusterValidationRow,
  qmClusterValidationMarkdown,
} from "./qm-cluster-validation.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const SOURCE = "packages/science/src/physics/qm-cluster.validation.test.ts";

/** What one ligand gives, stored per case (`<target>/<ligand>`); CPU times are left out. */
type QmClusterCase =
  | { readonly status: "not_assessed"; readonly reason: string; readonly vina: number }
  | {
      readonly status: "assessed";
      readonly interaction_energy_kcal_mol: number;
      readonly cluster_atoms: number;
      readonly hydrogen_caps: number;
      readonly pocket_charge: number;
      readonly ligand_charge: number;
      readonly pocket_residues: readonly string[];
      readonly vina: number;
    };

const chosenOf = (target: string) => chosenLigands(QM_CLUSTER_VALIDATION_TARGETS, target);

/**
 * Every case with what it is computed from; the sample: the weakest and the strongest measured
 * binder of each series (4 of 38 ligands, both receptors parameterised: about an eighth of the cost).
 */
const ANSWERS: StoredAnswersOptions = {
  name: "qm-cluster",
  test: SOURCE,
  cases: seriesCases(QM_CLUSTER_VALIDATION_TARGETS, QM_CLUSTER_SETTINGS),
  sample: QM_CLUSTER_VALIDATION_TARGETS.flatMap(({ target }) => {
    const chosen = chosenOf(target);
    return [`${target}/${chosen[0]?.name}`, `${target}/${chosen.at(-1)?.name}`];
  }),
  tools: () => flatToolVersions(["xtb", "python.openmm", "python.parmed", "python.rdkit", "vina", "obabel"]),
};

test("the GFN2 QM-cluster interaction energy and Vina rank the aligned ligands of two protein-ligand-benchmark series against their measured Ki: Spearman ρ per target, as recorded in docs/science.md", {
  timeout: 3_600_000,
}, async (t) => {
  if (physicsToolsMissing !== null) {
    t.skip(physicsToolsMissing);
    return;
  }
  const workDir = await makeTempDir("qm-cluster-validation-", t);
  const wanted = new Set(casesToCompute(ANSWERS));
  const computed = new Map<string, QmClusterCase>();
  const costs: number[] = [];
  for (const { target } of QM_CLUSTER_VALIDATION_TARGETS) {
    const chosen = chosenOf(target).filter((ligand) => wanted.has(`${target}/${ligand.name}`));
    if (chosen.length === 0) continue;
    const dir = join(workDir, target);
    // The receptor as the module builds it: ff14SB on the benchmark's hydrogen-added protein.
    const receptor = await prepareMmGbsaReceptor(join(PLB, target, "protein.pdb"), dir);
    assert.equal(receptor.status, "prepared", `${target}: ${"reason" in receptor ? receptor.reason : ""}`);
    if (receptor.status !== "prepared") continue;
    const receptorPdbqt = await vinaReceptorOf(target, dir);
    for (const ligand of chosen) {
      const path = join(dir, `${ligand.name}.sdf`);
      writeFileSync(path, ligand.sdf);
      // A budget no ligand here reaches: the figures must not depend on the machine's load.
      const score = await scoreQmCluster(receptor, path, join(dir, "xtb"), 1_200_000);
      const vina = await vinaScore(receptorPdbqt, path);
      computed.set(
        `${target}/${ligand.name}`,
        score.status === "assessed"
          ? {
              status: score.status,
              interaction_energy_kcal_mol: score.interaction_energy_kcal_mol,
              cluster_atoms: score.cluster_atoms,
              hydrogen_caps: score.hydrogen_caps,
              pocket_charge: score.pocket_charge,
              ligand_charge: score.ligand_charge,
              pocket_residues: score.pocket_residues,
              vina,
            }
          : { status: score.status, reason: score.reason, vina },
      );
      if (score.status === "assessed") costs.push(score.cpu_seconds);
      console.log(
        `# ${target} ${ligand.name}: ${score.status === "assessed" ? `ΔE ${score.interaction_energy_kcal_mol} kcal/mol, ${score.cluster_atoms} atoms, charge ${score.pocket_charge}/${score.ligand_charge}` : score.reason}; ${score.cpu_seconds} CPU-s (load ${loadavg()[0]?.toFixed(1)})`,
      );
    }
  }
  // Exact: xtb runs on one thread (xtb-engine.ts, -P 1) and the energy is rounded to 0.01 kcal/mol;
  // Vina's score_only is deterministic.
  const answers = await settleAnswers(ANSWERS, computed);
  const rows: QmClusterValidationRow[] = [];
  for (const { target } of QM_CLUSTER_VALIDATION_TARGETS) {
    const chosen = chosenOf(target);
    const cases = chosen.map((ligand) => answers.get(`${target}/${ligand.name}`));
    // A ligand the module cannot score is not_assessed with its reason (counted, never dropped
    // silently); ρ is over the scored ones, Vina's on the same ligands.
    const kept = cases.flatMap((answer, i) => (answer?.status === "assessed" ? [i] : []));
    assert.ok(kept.length >= chosen.length - 2, `${target}: at most two ligands not assessed`);
    const assessed = cases.flatMap((answer) => (answer?.status === "assessed" ? [answer] : []));
    const experimental = kept.map((i) => chosen[i]?.dgExp ?? Number.NaN);
    const atoms = assessed.map((answer) => answer.cluster_atoms);
    const charges = [
      ...new Set(assessed.map((answer) => `${answer.pocket_charge} / ${answer.ligand_charge}`)),
    ].sort();
    rows.push({
      target,
      available: ligandsOf(target).length,
      scored: assessed.length,
      qm_cluster: round(
        spearman(
          assessed.map((answer) => answer.interaction_energy_kcal_mol),
          experimental,
        ) ?? Number.NaN,
        2,
      ),
      vina: round(
        spearman(
          assessed.map((answer) => answer.vina),
          experimental,
        ) ?? Number.NaN,
        2,
      ),
      cluster_atoms: [Math.min(...atoms), Math.max(...atoms)],
      charges: charges.join(", "),
    });
    console.log(`# ${target}: ${JSON.stringify(rows.at(-1))}`);
  }
  console.log(`# figures ${JSON.stringify(rows)}`);
  console.log(
    `# cost ${JSON.stringify({
      min_cpu_s: Math.min(...costs),
      max_cpu_s: Math.max(...costs),
      mean_cpu_s: round(costs.reduce((a, b) => a + b, 0) / costs.length, 1),
      load: loadavg()
        .map((v) => v.toFixed(1))
        .join(" "),
    })}`,
  );
  assert.equal(rows.length, QM_CLUSTER_VALIDATION_TARGETS.length);
  assert.deepEqual(rows, QM_CLUSTER_VALIDATION);
  assertGeneratedBlock(DOCS, "qm-cluster-plb", SOURCE, qmClusterValidationMarkdown(rows));
});
