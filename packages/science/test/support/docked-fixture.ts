import { cp } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { StructureCompound, StructureContext } from "../../src/define-structure-module.ts";

/** The runner's docking fixture: results/molecular_docking.json and its poses of three DHFR compounds. */
export const DOCKED_FIXTURE = fileURLToPath(
  new URL("../../../runner/test/fixtures/docking/results/", import.meta.url),
);

/** The fixture's receptor (its README): the structure demo's 1S3V. */
export const DOCKED_RECEPTOR = fileURLToPath(
  new URL("../../../../examples/structure-demo/01_sources/1s3v_protein_one_lig_removed.pdb", import.meta.url),
);

/** A parsed compound as the structure stage hands it to a module (only its id matters here). */
export const structureCompound = (candidateId: string): StructureCompound => ({
  ok: true,
  row: { index: 0, line: 2, candidateId, name: null, smiles: "C", metadata: {} },
  chem: { parent_smiles: "C" },
});

/** The structure context of the fixture's receptor (structure 0), its scratch under the run folder. */
export const dockedContextOf = (runDir: string, mode: string) =>
  ({
    runDir,
    mode,
    workDir: join(runDir, "scratch"),
    staged: { index: 0, path: DOCKED_RECEPTOR, entry: { ligand: "1s3v_ligand.sdf" } },
  }) as unknown as StructureContext;

/** A run folder holding the fixture's docking results, removed when the test ends. */
export async function copyDockedFixture(runDir: string): Promise<void> {
  await cp(DOCKED_FIXTURE, join(runDir, "results"), { recursive: true });
}
