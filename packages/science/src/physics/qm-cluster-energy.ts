import { fileURLToPath } from "node:url";
import { round } from "../numeric/round.ts";
import { cpuSecondsOf, describeToolFailure, runTool } from "../structure/run-tool.ts";
import { STRUCTURE_PYTHON } from "../structure/tool-versions.ts";
import type { MmGbsaReceptor } from "./mm-gbsa.ts";
import { buildCluster, type ClusterLigand, type ClusterReceptor, QM_CLUSTER_SETTINGS } from "./qm-cluster.ts";
import { createXtbEngine, XTB_METHOD } from "./xtb-engine.ts";

const SCRIPT = fileURLToPath(new URL("./python/qm_cluster_atoms.py", import.meta.url));

/**
 * How much qmmm_analysis computes (issue 40 item 5): the best-scored docked compounds per structure,
 * the CPU budget of one compound (the atoms script and the three GFN2 single points together), and
 * the largest cluster it runs (GFN2's cost grows faster than linearly with the atoms). Measured with
 * qm-cluster.validation.test.ts and `npm run bench -- physics --only=qmmm_analysis` (the cost is
 * printed in the card): tyk2's clusters of 300–400 atoms cost 10–20 CPU-s a compound.
 */
export const QM_CLUSTER_CAPS = {
  max_compounds_per_structure: 3,
  compound_cpu_budget_ms: 300_000,
  max_cluster_atoms: 1000,
} as const;

/** What the energy is, in every record: never a binding free energy. */
export const QM_CLUSTER_ENERGY_KIND =
  "GFN2 QM-cluster interaction energy (no sampling, no entropy, no relaxation)";

export type QmClusterScore =
  | { readonly status: "not_assessed"; readonly reason: string; readonly cpu_seconds: number }
  | {
      readonly status: "assessed";
      /** ΔE = E(complex) − E(pocket) − E(ligand), kcal/mol, GFN2-xTB/ALPB(water) single points at the pose. */
      readonly interaction_energy_kcal_mol: number;
      readonly energy_kind: typeof QM_CLUSTER_ENERGY_KIND;
      readonly method: typeof XTB_METHOD;
      /** The selected residues, `RES:CHAIN:NUMBER`, in receptor order. */
      readonly pocket_residues: readonly string[];
      readonly cluster_atoms: number;
      readonly hydrogen_caps: number;
      readonly pocket_charge: number;
      readonly ligand_charge: number;
      readonly cutoff_angstrom: number;
      readonly cpu_seconds: number;
    };

type AtomsOutput =
  | { readonly ligand: ClusterLigand; readonly receptor: ClusterReceptor }
  | { readonly error: string };

/**
 * The GFN2 QM-cluster interaction energy of one posed ligand (SDF, first molecule) in a receptor
 * parameterised by mm-gbsa.ts (ff14SB on the hydrogen-added protein): the cluster of qm-cluster.ts,
 * three single points with ALPB water at the given geometry. Never throws: a ligand it cannot score
 * is `not_assessed` with the reason; the CPU of every process it ran is counted.
 */
export async function scoreQmCluster(
  receptor: Extract<MmGbsaReceptor, { status: "prepared" }>,
  ligandPath: string,
  workDir: string,
  cpuBudgetMs: number = QM_CLUSTER_CAPS.compound_cpu_budget_ms,
): Promise<QmClusterScore> {
  let spentMs = 0;
  const skip = (reason: string): QmClusterScore => ({
    status: "not_assessed",
    reason,
    cpu_seconds: round(spentMs / 1000, 2),
  });
  const cpuSeconds = cpuSecondsOf(cpuBudgetMs);
  const run = await runTool(STRUCTURE_PYTHON, [SCRIPT, receptor.path, ligandPath], {
    cpuSeconds,
    timeoutMs: cpuBudgetMs * 10,
  });
  spentMs += run.cpuMs ?? run.durationMs;
  const failure = describeToolFailure("qm_cluster_atoms.py", run, cpuBudgetMs * 10, cpuSeconds);
  if (failure !== null) return skip(failure);
  const atoms = JSON.parse(run.stdout) as AtomsOutput;
  if ("error" in atoms) return skip(atoms.error);
  const built = buildCluster(atoms.receptor, atoms.ligand);
  if (!built.ok) return skip(built.reason);
  const { cluster } = built;
  if (cluster.complex.symbols.length > QM_CLUSTER_CAPS.max_cluster_atoms)
    return skip(
      `cap: a cluster of ${cluster.complex.symbols.length} atoms (${cluster.residues.length} residues) is over ` +
        `the ${QM_CLUSTER_CAPS.max_cluster_atoms} a compound's CPU budget allows`,
    );
  const engine = createXtbEngine({ workDir });
  const energies: number[] = [];
  for (const [part, geometry] of [
    ["complex", cluster.complex],
    ["pocket", cluster.pocket],
    ["ligand", cluster.ligand],
  ] as const) {
    const left = cpuBudgetMs - spentMs;
    if (left <= 0) return skip(`cap: the CPU budget of ${cpuBudgetMs / 1000} s was spent before the ${part}`);
    const result = await engine.singlePoint(geometry, left);
    spentMs += result.cpuMs;
    if (result.status !== "ok") return skip(`GFN2 single point of the ${part}: ${result.reason}`);
    energies.push(result.energyKcalMol);
  }
  const [complex, pocket, ligand] = energies as [number, number, number];
  return {
    status: "assessed",
    interaction_energy_kcal_mol: round(complex - pocket - ligand, 2),
    energy_kind: QM_CLUSTER_ENERGY_KIND,
    method: XTB_METHOD,
    pocket_residues: cluster.residues,
    cluster_atoms: cluster.complex.symbols.length,
    hydrogen_caps: cluster.caps,
    pocket_charge: cluster.pocket.charge,
    ligand_charge: cluster.ligand.charge,
    cutoff_angstrom: QM_CLUSTER_SETTINGS.pocket_cutoff_angstrom,
    cpu_seconds: round(spentMs / 1000, 2),
  };
}
