import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  findProvenancePathProblem,
  type ProvenanceFacts,
  provenanceFactsSchema,
  RUN_MANIFEST_FILE,
  type TreeEntry,
} from "@svc/core";

/**
 * What run_complete needs to sign the run's SLSA provenance (issue 30 item 6), read from the
 * sealed outputs themselves so the statement says what the folder says: the output files just
 * hashed, the staged inputs (`inputs/input_hashes.json`), the policy and the modules that ran with
 * their versions (the module plan), the runner version (`run_manifest.json`). Null when one of
 * them cannot be read, or when a path is one the issuer refuses to sign (issue 38 item 6, e.g.
 * NFC/NFD twins among the staged inputs): the run is sealed without provenance rather than not sealed.
 */
export async function readProvenanceFacts(
  runDir: string,
  runId: string,
  outputs: readonly TreeEntry[],
): Promise<ProvenanceFacts | null> {
  try {
    const inputs = (await readJson(runDir, join("inputs", "input_hashes.json"))) as {
      files: { path: string; sha256: string }[];
    };
    const plan = (await readJson(runDir, join("plans", `${runId}_module_plan.json`))) as {
      policy_version: string;
      modules: { module_id: string; outcome: string; version: string | null }[];
    };
    const manifest = (await readJson(runDir, RUN_MANIFEST_FILE)) as { runtime: { runner_version: string } };
    const parsed = provenanceFactsSchema.safeParse({
      outputs: outputs.map((file) => ({ path: file.path, sha256: file.sha256 })),
      inputs: inputs.files.map((file) => ({ path: file.path, sha256: file.sha256 })),
      policy_version: plan.policy_version,
      // the modules whose code ran (executed or failed), each with the version it reported
      modules: plan.modules.flatMap((entry) =>
        (entry.outcome === "executed" || entry.outcome === "failed") && entry.version !== null
          ? [{ module_id: entry.module_id, version: entry.version }]
          : [],
      ),
      runner_version: manifest.runtime.runner_version,
    });
    return parsed.success && findProvenancePathProblem(parsed.data) === null ? parsed.data : null;
  } catch {
    return null;
  }
}

async function readJson(runDir: string, path: string): Promise<unknown> {
  return JSON.parse(await readFile(join(runDir, path), "utf8"));
}
