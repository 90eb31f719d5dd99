import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";

/**
 * Scratch space of a run: `<run dir>/.scratch/`, on the output volume rather than the pod's
 * small `/tmp` emptyDir (issue 10 item 5: a 560k-row run outgrew a 4 GiB `/tmp`). Never part of
 * the outputs: the seal hashes, expected_output_hashes.json and verify.sh all leave it out, and
 * every exit path removes it.
 */
export const SCRATCH_DIR = ".scratch";

/** True for a run-relative path inside the scratch folder (for output walkers). */
export function isScratchPath(relativePath: string): boolean {
  return relativePath === SCRATCH_DIR || relativePath.startsWith(`${SCRATCH_DIR}/`);
}

/** A run's scratch folder; `dispose` is safe to call on every exit path, more than once. */
export interface Scratch {
  readonly dir: string;
  path(name: string): string;
  dispose(): Promise<void>;
}

/** Creates (or empties) `<run dir>/.scratch/`. */
export async function openScratch(runDir: string): Promise<Scratch> {
  const dir = join(runDir, SCRATCH_DIR);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  return {
    dir,
    path: (name) => join(dir, name),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
