import { spawnSync } from "node:child_process";
import { NATIVE_PYTHON } from "./native-rdkit.ts";

function probe(): string | null {
  if (spawnSync("vina", ["--version"]).status !== 0) return "vina missing (Debian autodock-vina)";
  if (spawnSync("obabel", ["-V"]).status !== 0) return "obabel missing (Debian openbabel)";
  if (spawnSync("autogrid4", ["--version"]).status !== 0) return "autogrid4 missing (Debian autogrid)";
  const modules = "import rdkit, pdbfixer, openmm\nfrom openbabel import pybel";
  if (spawnSync(NATIVE_PYTHON, ["-c", modules]).status !== 0)
    return "python3-rdkit, python3-pdbfixer or python3-openbabel missing";
  return null;
}

/**
 * Why the docking tools cannot run here, or null when they can. In CI (`CI=true`, where `.ci/run`
 * installs them) a missing tool is a failure, never a skip.
 */
export const structureToolsMissing: string | null = probe();

export function assertStructureToolsInCi(): void {
  if (structureToolsMissing !== null && process.env.CI === "true")
    throw new Error(`docking tools unavailable in CI: ${structureToolsMissing}`);
}
