import {
  findProvenancePathProblem,
  type ProvenanceFacts,
  provenanceFactsSchema,
  readRunFolder,
  type TreeEntry,
} from "@svc/core";

/**
 * What run_complete needs to sign the run's SLSA provenance (issue 30 item 6), read from the
 * sealed outputs themselves so the statement says what the folder says: the output files just
 * hashed, the staged inputs (`inputs/input_hashes.json`), the policy and the modules that ran with
 * their versions (the module plan), the runner version (`run_manifest.json`), each read through
 * core's run-folder reader (issue 41 item 1). Null when one of them is absent or not its shape, or
 * when a path is one the issuer refuses to sign (issue 38 item 6, e.g. NFC/NFD twins among the
 * staged inputs): the run is sealed without provenance rather than not sealed.
 */
export async function readProvenanceFacts(
  runDir: string,
  runId: string,
  outputs: readonly TreeEntry[],
): Promise<ProvenanceFacts | null> {
  const run = readRunFolder(runDir, { runId });
  try {
    const [inputs, plan, manifest] = await Promise.all([run.inputHashes(), run.modulePlan(), run.manifest()]);
    if (inputs === null || plan === null || manifest === null) return null;
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
