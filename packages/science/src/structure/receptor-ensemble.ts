import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { displaceStructureText, ENSEMBLE_RULE, planAnmConformers } from "./anm-conformers.ts";
import type { DockingReceptor } from "./docking-engine.ts";

/** The deep profile's receptors: the crystal receptor first, then its ANM conformers. */
export interface ReceptorEnsemble {
  /** Crystal first (label `crystal`); a single entry when no conformer could be made. */
  readonly receptors: readonly DockingReceptor[];
  readonly rule: string;
  /** The ANM eigenvalues of the modes used (units of γ), lowest first. */
  readonly eigenvalues: readonly number[];
  /** Why there are no conformers (too few or too many Cα atoms), or null. */
  readonly reason: string | null;
}

/**
 * Writes the ANM conformers of a prepared receptor (see `planAnmConformers`) into `dir`, one PDB and
 * one PDBQT per conformer: the prepared PDBQT's coordinates are moved in place, so the conformers keep
 * the crystal receptor's protonation, AutoDock types and partial charges (no second Open Babel run).
 */
export async function buildReceptorEnsemble(
  crystal: DockingReceptor,
  dir: string,
): Promise<ReceptorEnsemble> {
  const pdb = await readFile(crystal.pdbPath, "utf8");
  const plan = planAnmConformers(pdb);
  const first: DockingReceptor = { ...crystal, label: crystal.label ?? "crystal" };
  if (plan.status !== "planned")
    return { receptors: [first], rule: ENSEMBLE_RULE, eigenvalues: [], reason: plan.reason };
  const pdbqt = await readFile(crystal.pdbqtPath, "utf8");
  await mkdir(dir, { recursive: true });
  const receptors: DockingReceptor[] = [first];
  for (const conformer of plan.conformers) {
    const pdbPath = join(dir, `${conformer.label}.pdb`);
    const pdbqtPath = join(dir, `${conformer.label}.pdbqt`);
    await writeFile(pdbPath, displaceStructureText(pdb, plan, conformer));
    await writeFile(pdbqtPath, displaceStructureText(pdbqt, plan, conformer));
    receptors.push({ label: conformer.label, pdbPath, pdbqtPath });
  }
  const eigenvalues = [...new Set(plan.conformers.map((conformer) => conformer.eigenvalue))];
  return { receptors, rule: ENSEMBLE_RULE, eigenvalues, reason: null };
}
