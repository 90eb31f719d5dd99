import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parsePresealPayload, RUN_FILES } from "@svc/core";
import type { EntitlementClient } from "./lifecycle/entitlement-client.ts";
import type { Logger } from "./log.ts";
import { recordSealCompleted } from "./outputs/run-status-record.ts";
import { sealHashesWithFiles, statusOutputsOf } from "./outputs/seal-hashes.ts";
import { sealRun } from "./outputs/seal-run.ts";
import { EXIT, type ExitCode, RunnerError } from "./runner-error.ts";

/**
 * `svc-runner seal --run-dir <dir>`: completes a pre-seal once run_complete is reachable. The
 * outputs must still be the ones the pre-seal recorded; a touched run is refused, not sealed.
 * The pre-seal holds the very hashes run_complete was first asked to seal (the outputs are
 * written once, issue 29 item 2), so the same call is right whether run_complete never reached
 * the service or was recorded with its reply lost: the service answers a repeated run_complete
 * with the same seal, where other hashes would be refused (409). The sealing steps are the seal
 * stage's own (`sealRun`).
 */
export async function completeSeal(deps: {
  runDir: string;
  log: Logger;
  entitlement: Pick<EntitlementClient, "runComplete">;
  now?: () => Date;
}): Promise<ExitCode> {
  const presealPath = join(deps.runDir, RUN_FILES.preseal);
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
  const actual = await sealHashesWithFiles(deps.runDir);
  if (
    actual.outputs_sha256 !== preseal.outputs_sha256 ||
    actual.run_manifest_sha256 !== preseal.run_manifest_sha256
  ) {
    throw new RunnerError(
      "OUTPUTS_CHANGED",
      `outputs of ${deps.runDir} changed since the pre-seal (outputs ${actual.outputs_sha256} vs ${preseal.outputs_sha256})`,
    );
  }
  let sealId: string;
  try {
    // the outputs hash to the pre-seal's values: sealing them is sealing what was first asked
    sealId = (await sealRun({ ...deps, runId: preseal.run_id }, actual)).seal_id;
  } catch (error) {
    if (error instanceof RunnerError && error.code === "ENTITLEMENT_UNREACHABLE") {
      deps.log.warn("run_complete still unreachable; the pre-seal stays", { cause: error.message });
      return EXIT.preseal;
    }
    throw error;
  }
  await recordSealCompleted(
    deps.runDir,
    { runId: preseal.run_id, projectId: preseal.project_id, sealId, outputs: statusOutputsOf(actual.files) },
    deps.now ?? (() => new Date()),
  );
  return EXIT.success;
}
