import { spawnSync } from "node:child_process";
import { NATIVE_PYTHON } from "./native-rdkit.ts";

function probe(): string | null {
  if (spawnSync("xtb", ["--version"]).status !== 0) return "xtb missing (Debian xtb)";
  if (spawnSync("mopac", ["-V"]).status !== 0) return "mopac missing (Debian mopac)";
  if (spawnSync(NATIVE_PYTHON, ["-c", "import rdkit"]).status !== 0) return "python3-rdkit missing";
  return null;
}

/**
 * Why the ligand physics programs cannot run here, or null when they can (issue 40). In CI
 * (`CI=true`, where `.ci/run` installs them) a missing program is a failure, never a skip.
 */
export const physicsToolsMissing: string | null = probe();

if (physicsToolsMissing !== null && process.env.CI === "true")
  throw new Error(`physics tools unavailable in CI: ${physicsToolsMissing}`);
