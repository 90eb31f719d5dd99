import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { RUN_FILES } from "@svc/core";
import { RunnerError } from "../runner-error.ts";

/**
 * Makes `<output-root>/<run_id>/` ready. A folder holding a finished run (its run_manifest.json
 * or a seal/pre-seal) is refused, never overwritten. Leftovers of an interrupted attempt with the
 * same run id (no manifest yet) are cleared, so retrying a run id after a transient failure works.
 */
export async function prepareRunDir(
  outputRoot: string,
  runId: string,
  options: { clear: boolean; keep?: (name: string) => boolean } = { clear: true },
): Promise<string> {
  const runDir = join(outputRoot, runId);
  const finished = await Promise.all(
    [RUN_FILES.manifest, RUN_FILES.sealJson, RUN_FILES.preseal].map((name) => exists(join(runDir, name))),
  );
  if (finished.some(Boolean)) {
    throw new RunnerError("RUN_ALREADY_FINISHED", `Output folder already holds a finished run: ${runDir}`);
  }
  // Pods of a sharded run share the folder: none of them clears what the others write.
  if (options.clear && (await exists(runDir))) {
    for (const name of await readdir(runDir)) {
      if (options.keep?.(name) === true) continue;
      await rm(join(runDir, name), { recursive: true, force: true });
    }
  }
  await mkdir(runDir, { recursive: true });
  return runDir;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
