/** One pose of Vina's output PDBQT. */
export interface VinaPose {
  /** 1-based rank, best first. */
  readonly mode: number;
  /** Vina's affinity estimate, kcal/mol (lower is better). */
  readonly score: number;
  /** RMSD lower and upper bound from the best pose, Å (Vina's own, not symmetry-aware). */
  readonly rmsdLowerBound: number;
  readonly rmsdUpperBound: number;
  /** The pose's PDBQT record, without MODEL/ENDMDL: a ligand file Vina can rescore. */
  readonly pdbqt: string;
}

/**
 * Reads every MODEL of Vina 1.2's `--out` file: its `REMARK VINA RESULT: score lb ub` line and atoms.
 * Returns [] for text with no model (the caller reports that as the compound's reason).
 */
export function parseVinaPoses(text: string): VinaPose[] {
  const poses: VinaPose[] = [];
  const models = text.split(/^MODEL\s+\d+\s*$/m).slice(1);
  for (const model of models) {
    const body = model.split(/^ENDMDL\s*$/m)[0] ?? "";
    const result = body.match(/^REMARK VINA RESULT:\s+(\S+)\s+(\S+)\s+(\S+)/m);
    if (!result) continue;
    poses.push({
      mode: poses.length + 1,
      score: Number(result[1]),
      rmsdLowerBound: Number(result[2]),
      rmsdUpperBound: Number(result[3]),
      pdbqt: `${body.replace(/^\n/, "").trimEnd()}\n`,
    });
  }
  return poses;
}

/** The `Estimated Free Energy of Binding` of a `vina --score_only` run, kcal/mol, or null. */
export function parseScoreOnly(stdout: string): number | null {
  const match = stdout.match(/Estimated Free Energy of Binding\s*:\s*(-?[\d.]+)/);
  return match ? Number(match[1]) : null;
}
