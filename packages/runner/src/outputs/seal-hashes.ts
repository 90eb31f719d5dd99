import { join } from "node:path";
import { computeSealedRunHashes, RUN_MANIFEST_FILE, type TreeEntry } from "@svc/core";

/**
 * The two hashes run_complete seals: the output tree (seal/ and scratch excluded) and the manifest.
 * One definition with the verifier (`svc seal verify <run-dir>` recomputes them with the same core
 * function), so what is sealed and what is checked cannot drift.
 */
export async function sealHashes(
  runDir: string,
): Promise<{ outputs_sha256: string; run_manifest_sha256: string }> {
  const { outputs_sha256, run_manifest_sha256 } = await sealHashesWithFiles(runDir);
  return { outputs_sha256, run_manifest_sha256 };
}

/** {@link sealHashes} and the files behind `outputs_sha256` (the provenance's subjects, issue 30 item 6). */
export async function sealHashesWithFiles(
  runDir: string,
): Promise<{ outputs_sha256: string; run_manifest_sha256: string; files: readonly TreeEntry[] }> {
  const hashes = await computeSealedRunHashes(runDir);
  if (hashes.run_manifest_sha256 === null)
    throw new Error(`${join(runDir, RUN_MANIFEST_FILE)} is missing: the run cannot be sealed`);
  return {
    outputs_sha256: hashes.outputs_sha256,
    run_manifest_sha256: hashes.run_manifest_sha256,
    files: hashes.outputs.entries,
  };
}
