import { join } from "node:path";
import { sha256File } from "./digest.ts";
import { digestTree, type TreeDigest } from "./tree-digest.ts";

/** The run folder's manifest, whose SHA-256 the seal carries as `run_manifest_sha256`. */
export const RUN_MANIFEST_FILE = "run_manifest.json";

/**
 * Never part of the sealed outputs: the seal itself, and the runner's scratch folder (on the
 * output volume while a run is in progress, removed on every exit path; issue 10 item 5).
 */
export function isOutsideSealedOutputs(relativePath: string): boolean {
  const top = relativePath.split("/")[0] ?? "";
  // `.scratch/`, or a shard pod's `.scratch-<index>/` (issue 10 item 9).
  return top === "seal" || top === ".scratch" || top.startsWith(".scratch-");
}

export interface SealedRunHashes {
  /** svc-tree/v1 digest of the run folder, `seal/` and the scratch folders excluded: the seal's `outputs_sha256`. */
  readonly outputs_sha256: string;
  /** SHA-256 of `run_manifest.json`, or null when the file is missing. */
  readonly run_manifest_sha256: string | null;
  /** Every file behind `outputs_sha256`, to name the ones that differ. */
  readonly outputs: TreeDigest;
}

/**
 * The two hashes run_complete seals, computed from a run folder (domain notes, "Seal"), the way
 * the runner's sealHashes computes them before sealing; `svc seal verify <run-dir>` recomputes
 * them with this function.
 */
export async function computeSealedRunHashes(runDir: string): Promise<SealedRunHashes> {
  const outputs = await digestTree(runDir, { exclude: isOutsideSealedOutputs });
  let manifest: string | null = null;
  try {
    manifest = (await sha256File(join(runDir, RUN_MANIFEST_FILE))).sha256;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  return { outputs_sha256: outputs.sha256, run_manifest_sha256: manifest, outputs };
}
