import { join } from "node:path";
import {
  computeSealedRunHashes,
  RUN_MANIFEST_FILE,
  RUN_STATUS_OUTPUT_FILES,
  type RunStatusOutput,
  type TreeEntry,
} from "@svc/core";

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

/** The record's outputs among the hashed files, in RUN_STATUS_OUTPUT_FILES order (absent ones left out). */
export function statusOutputsOf(files: readonly TreeEntry[]): RunStatusOutput[] {
  const byPath = new Map(files.map((entry) => [entry.path, entry]));
  return RUN_STATUS_OUTPUT_FILES.flatMap((path) => {
    const entry = byPath.get(path);
    return entry === undefined ? [] : [{ path, bytes: entry.size, sha256: entry.sha256 }];
  });
}
