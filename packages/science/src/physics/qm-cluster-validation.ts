import { QM_CLUSTER_SETTINGS } from "./qm-cluster.ts";

/**
 * The protein-ligand-benchmark series qmmm_analysis is validated on (packages/science/data/
 * protein-ligand-benchmark/), how many ligands of each are scored (spread over the measured range;
 * every ligand of the two series, about 13 CPU-s each, so the whole validation stays under ~15 min
 * of CPU), and what came out: recomputed by qm-cluster.validation.test.ts, which fails when a
 * figure drifts and writes {@link qmClusterValidationMarkdown} into docs/science.md.
 */
export const QM_CLUSTER_VALIDATION_TARGETS = [
  { target: "tyk2", ligands: 13 },
  { target: "mcl1", ligands: 25 },
] as const;

/** One series' figures: Spearman ρ of ΔE and of Vina's score with the experimental ΔG, on the same ligands. */
export interface QmClusterValidationRow {
  readonly target: string;
  /** Ligands in the series, and how many of those chosen were scored (a not_assessed one is counted out). */
  readonly available: number;
  readonly scored: number;
  readonly qm_cluster: number;
  readonly vina: number;
  /** Smallest and largest cluster (complex) in atoms. */
  readonly cluster_atoms: readonly [number, number];
  /** The distinct "pocket / ligand" charges of the scored clusters. */
  readonly charges: string;
}

export const QM_CLUSTER_VALIDATION: readonly QmClusterValidationRow[] = [
  {
    target: "tyk2",
    available: 13,
    scored: 13,
    qm_cluster: 0.73,
    vina: 0.83,
    cluster_atoms: [357, 380],
    charges: "-1 / 0",
  },
  {
    target: "mcl1",
    available: 25,
    scored: 25,
    qm_cluster: 0.7,
    vina: 0.25,
    cluster_atoms: [315, 384],
    charges: "1 / -1",
  },
];

/**
 * CPU-s per ligand in the validation run (the atoms script and three GFN2 single points, one
 * thread; min and max over both series; mean 12.3) and the range of the 1-minute load beside it,
 * as qm-cluster.validation.test.ts printed them (2026-12-02): CPU time, so the load matters little.
 */
export const QM_CLUSTER_MEASURED_COST = { min_cpu_s: 7.42, max_cpu_s: 16.58, load: "3.8–15.5" } as const;

/** The docs/science.md block `qm-cluster-plb`, from the checked-in figures above. */
export function qmClusterValidationMarkdown(
  rows: readonly QmClusterValidationRow[] = QM_CLUSTER_VALIDATION,
): string {
  const atoms = rows.flatMap((row) => row.cluster_atoms);
  return [
    "Aligned ligand poses as the benchmark gives them, at their geometry (no relaxation): the GFN2-xTB/ALPB(water) " +
      `QM-cluster interaction energy (whole residues with an atom within ${QM_CLUSTER_SETTINGS.pocket_cutoff_angstrom} Å ` +
      "of a ligand heavy atom, cut peptide bonds capped with hydrogens; pocket charge from the ff14SB residue " +
      "charges, the ligand's formal charge) and Vina 1.2.3 `--score_only --autobox` on the same poses (receptor " +
      "through Open Babel's rigid PDBQT); experimental ΔG = RT ln Ki at 298.15 K from ligands.yml. Spearman ρ " +
      "of each with the experimental ΔG (positive: it ranks as the measurements do):",
    "",
    "| target | ligands in the series | scored | ρ GFN2 QM cluster | ρ Vina | cluster atoms | pocket / ligand charge |",
    "|---|---|---|---|---|---|---|",
    ...rows.map(
      (row) =>
        `| ${row.target} | ${row.available} | ${row.scored} | ${row.qm_cluster} | ${row.vina} | ` +
        `${row.cluster_atoms[0]}–${row.cluster_atoms[1]} | ${row.charges} |`,
    ),
    "",
    `Cost in that run: ${QM_CLUSTER_MEASURED_COST.min_cpu_s}–${QM_CLUSTER_MEASURED_COST.max_cpu_s} CPU-s per ligand ` +
      `(clusters of ${Math.min(...atoms)}–${Math.max(...atoms)} atoms; the atoms script and three single points, one ` +
      `thread; 1-minute load ${QM_CLUSTER_MEASURED_COST.load} on 2 cores).`,
  ].join("\n");
}
