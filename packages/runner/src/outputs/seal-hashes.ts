import { join } from "node:path";
import { digestTree, sha256File } from "@svc/core";
import { isScratchPath } from "./scratch.ts";

/** The two hashes run_complete seals: the output tree (seal/ and scratch excluded) and the manifest. */
export async function sealHashes(
  runDir: string,
): Promise<{ outputs_sha256: string; run_manifest_sha256: string }> {
  const tree = await digestTree(runDir, { exclude: (path) => path === "seal" || isScratchPath(path) });
  const manifest = await sha256File(join(runDir, "run_manifest.json"));
  return { outputs_sha256: tree.sha256, run_manifest_sha256: manifest.sha256 };
}
