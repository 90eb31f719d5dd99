import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { SCRATCH_DIR as CORE_SCRATCH_DIR } from "@svc/core";

/**
 * Scratch space of a run: `<run dir>/.scratch/`, on the output volume rather than the pod's
 * small `/tmp` emptyDir (issue 10 item 5: a 560k-row run outgrew a 4 GiB `/tmp`). Never part of
 * the outputs: the seal hashes, expected_output_hashes.json and verify.sh all leave it out, and
 * every exit path removes it.
 */
export const SCRATCH_DIR = CORE_SCRATCH_DIR;

/** True for a run-relative path inside a scratch folder (`.scratch`, or a shard's `.scratch-<k>`). */
export function isScratchPath(relativePath: string): boolean {
  const top = relativePath.split("/")[0] ?? "";
  return top === SCRATCH_DIR || top.startsWith(`${SCRATCH_DIR}-`);
}

/** A run's scratch folder; `dispose` is safe to call on every exit path, more than once. */
export interface Scratch {
  readonly dir: string;
  path(name: string): string;
  dispose(): Promise<void>;
}

/** Creates (or empties) `<run dir>/.scratch/` (or `name`, one per pod of a sharded run). */
export async function openScratch(runDir: string, name: string = SCRATCH_DIR): Promise<Scratch> {
  const dir = join(runDir, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return {
    dir,
    path: (name) => join(dir, name),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Removes every scratch entry of a run folder (`.scratch`, `.scratch-<k>`): the seal stage calls
 * it before hashing, so a sealed folder holds nothing the seal leaves out (issue 23 item 2).
 */
export async function removeScratchFolders(runDir: string): Promise<void> {
  for (const name of await readdir(runDir))
    if (isScratchPath(name)) await rm(join(runDir, name), { recursive: true, force: true });
}
