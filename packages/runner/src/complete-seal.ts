import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parsePresealPayload, SEAL_FILES } from "@svc/core";
import type { EntitlementClient } from "./lifecycle/entitlement-client.ts";
import type { Logger } from "./log.ts";
import { readProvenanceFacts } from "./outputs/provenance-facts.ts";
import { readClaimStrength } from "./outputs/read-claim-strength.ts";
import { recordSealCompleted } from "./outputs/run-status-record.ts";
import { writeSealFolder } from "./outputs/seal-files.ts";
import { sealHashesWithFiles } from "./outputs/seal-hashes.ts";
import { EXIT, type ExitCode, RunnerError } from "./runner-error.ts";

/**
 * `svc-runner seal --run-dir <dir>`: completes a pre-seal once run_complete is reachable. The
 * outputs must still be the ones the pre-seal recorded; a touched run is refused, not sealed.
 * The pre-seal holds the very hashes run_complete was first asked to seal (the outputs are
 * written once, issue 29 item 2), so the same call is right whether run_complete never reached
 * the service or was recorded with its reply lost: the service answers a repeated run_complete
 * with the same seal, where other hashes would be refused (409).
 */
export async function completeSeal(deps: {
  runDir: string;
  log: Logger;
  entitlement: Pick<EntitlementClient, "runComplete">;
  now?: () => Date;
}): Promise<ExitCode> {
  const presealPath = join(deps.runDir, "seal", SEAL_FILES.preseal);
  let text: string;
  try {
    text = await readFile(presealPath, "utf8");
  } catch {
    throw new RunnerError(
      "RUN_DIR_INVALID",
      `no pre-seal at ${presealPath} (already sealed, or not a run folder)`,
    );
  }
  let preseal: ReturnType<typeof parsePresealPayload>;
  try {
    preseal = parsePresealPayload(JSON.parse(text));
  } catch (error) {
    throw new RunnerError("RUN_DIR_INVALID", `${presealPath}: ${(error as Error).message}`, { cause: error });
  }
  const { files, ...actual } = await sealHashesWithFiles(deps.runDir);
  if (
    actual.outputs_sha256 !== preseal.outputs_sha256 ||
    actual.run_manifest_sha256 !== preseal.run_manifest_sha256
  ) {
    throw new RunnerError(
      "OUTPUTS_CHANGED",
      `outputs of ${deps.runDir} changed since the pre-seal (outputs ${actual.outputs_sha256} vs ${preseal.outputs_sha256})`,
    );
  }
  // issue 30 item 6: the provenance names the files behind outputs_sha256; the outputs are written
  // once (issue 29 item 2), so those are the folder's files as they are
  const provenance = await readProvenanceFacts(deps.runDir, preseal.run_id, files);
  if (provenance === null)
    deps.log.warn("sealing without provenance: its facts are unreadable", { phase: "seal" });
  // issue 37 item 3: the claim strength the (unchanged) summary states, signed and drawn on the seal
  const claim = await readClaimStrength(deps.runDir);
  deps.log.info("run_complete", { phase: "seal", run_id: preseal.run_id, claim_strength: claim });
  let complete: Awaited<ReturnType<typeof deps.entitlement.runComplete>>;
  try {
    complete = await deps.entitlement.runComplete({
      run_id: preseal.run_id,
      outputs_sha256: preseal.outputs_sha256,
      run_manifest_sha256: preseal.run_manifest_sha256,
      ...(claim === null ? {} : { claim_strength: claim }),
      ...(provenance === null ? {} : { provenance }),
    });
  } catch (error) {
    if (error instanceof RunnerError && error.code === "ENTITLEMENT_UNREACHABLE") {
      deps.log.warn("run_complete still unreachable; the pre-seal stays", { cause: error.message });
      return EXIT.preseal;
    }
    throw error;
  }
  await writeSealFolder(deps.runDir, complete.seal, complete.log, complete.provenance);
  await recordSealCompleted(
    deps.runDir,
    { runId: preseal.run_id, projectId: preseal.project_id, sealId: complete.seal.seal_id },
    deps.now ?? (() => new Date()),
  );
  deps.log.info("sealed", { phase: "seal", seal_id: complete.seal.seal_id, run_dir: deps.runDir });
  return EXIT.success;
}
