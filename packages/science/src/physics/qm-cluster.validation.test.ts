import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
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
import { prepareMmGbsaReceptor } from "./mm-gbsa.ts";
import { type QmClusterScore, scoreQmCluster } from "./qm-cluster-energy.ts";
import {
  QM_CLUSTER_VALIDATION,
  QM_CLUSTER_VALIDATION_TARGETS,
  type QmClusterValidationRow,
  qmClusterValidationMarkdown,
} from "./qm-cluster-validation.ts";

const DOCS = new URL("../../../../docs/science.md", import.meta.url);
const SOURCE = "packages/science/src/physics/qm-cluster.validation.test.ts";

test("the GFN2 QM-cluster interaction energy and Vina rank the aligned ligands of two protein-ligand-benchmark series against their measured Ki: Spearman ρ per target, as recorded in docs/science.md", {
  timeout: 3_600_000,
}, async (t) => {
  if (physicsToolsMissing !== null) {
    t.skip(physicsToolsMissing);
    return;
  }
  const workDir = await makeTempDir("qm-cluster-validation-", t);
  const rows: QmClusterValidationRow[] = [];
  const costs: number[] = [];
  for (const { target, ligands: count } of QM_CLUSTER_VALIDATION_TARGETS) {
    const all = ligandsOf(target);
    const chosen = spread(all, count);
    const dir = join(workDir, target);
    // The receptor as the module builds it: ff14SB on the benchmark's hydrogen-added protein.
    const receptor = await prepareMmGbsaReceptor(join(PLB, target, "protein.pdb"), dir);
    assert.equal(receptor.status, "prepared", `${target}: ${"reason" in receptor ? receptor.reason : ""}`);
    if (receptor.status !== "prepared") continue;
    const receptorPdbqt = await vinaReceptorOf(target, dir);
    const scores: QmClusterScore[] = [];
    const vina: number[] = [];
    for (const ligand of chosen) {
      const path = join(dir, `${ligand.name}.sdf`);
      writeFileSync(path, ligand.sdf);
      // A budget no ligand here reaches: the figures must not depend on the machine's load.
      const score = await scoreQmCluster(receptor, path, join(dir, "xtb"), 1_200_000);
      scores.push(score);
      vina.push(await vinaScore(receptorPdbqt, path));
      console.log(
        `# ${target} ${ligand.name}: ${score.status === "assessed" ? `ΔE ${score.interaction_energy_kcal_mol} kcal/mol, ${score.cluster_atoms} atoms, charge ${score.pocket_charge}/${score.ligand_charge}` : score.reason}; ${score.cpu_seconds} CPU-s (load ${loadavg()[0]?.toFixed(1)})`,
      );
    }
    // A ligand the module cannot score is not_assessed with its reason (counted, never dropped
    // silently); ρ is over the scored ones, Vina's on the same ligands.
    const kept = scores.flatMap((score, i) => (score.status === "assessed" ? [i] : []));
    assert.ok(kept.length >= chosen.length - 2, `${target}: at most two ligands not assessed`);
    const assessed = kept
      .map((i) => scores[i])
      .flatMap((score) => (score?.status === "assessed" ? [score] : []));
    const experimental = kept.map((i) => chosen[i]?.dgExp ?? Number.NaN);
    for (const score of assessed) costs.push(score.cpu_seconds);
    const atoms = assessed.map((score) => score.cluster_atoms);
    const charges = [
      ...new Set(assessed.map((score) => `${score.pocket_charge} / ${score.ligand_charge}`)),
    ].sort();
    rows.push({
      target,
      available: all.length,
      scored: assessed.length,
      qm_cluster: round(
        spearman(
          assessed.map((score) => score.interaction_energy_kcal_mol),
          experimental,
        ) ?? Number.NaN,
        2,
      ),
      vina: round(
        spearman(
          kept.map((i) => vina[i] ?? Number.NaN),
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
