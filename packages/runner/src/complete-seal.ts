import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parsePresealPayload } from "@svc/core";
import type { EntitlementClient } from "./lifecycle/entitlement-client.ts";
import type { Logger } from "./log.ts";
import { readProvenanceFacts } from "./outputs/provenance-facts.ts";
import { writeSealFolder } from "./outputs/seal-files.ts";
import { sealHashes, sealHashesWithFiles } from "./outputs/seal-hashes.ts";
import { readSealedState, restoreSealedState, sealedStateFiles } from "./outputs/sealed-state.ts";
import { EXIT, type ExitCode, RunnerError } from "./runner-error.ts";

/**
 * `svc-runner seal --run-dir <dir>`: completes a pre-seal once run_complete is reachable. The
 * outputs must still be the ones the pre-seal recorded; a touched run is refused, not sealed.
 */
export async function completeSeal(deps: {
  runDir: string;
  log: Logger;
  entitlement: Pick<EntitlementClient, "runComplete">;
}): Promise<ExitCode> {
  const presealPath = join(deps.runDir, "seal", "preseal.json");
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
    throw new RunnerError("RUN_DIR_INVALID", `${presealPath}: ${(error as Error).message}`);
  }
  const { files: now, ...presealState } = await sealHashesWithFiles(deps.runDir);
  assertSameState(presealState, preseal, `outputs of ${deps.runDir} changed since the pre-seal`);
  // Seal the state run_complete was first asked to seal (see keepSealedState): the same hashes
  // whether or not the service recorded that first attempt.
  const sealed = await readSealedState(deps.runDir);
  // issue 30 item 6: the provenance names the sealed state's files (the kept copies of the
  // rewritten seal-status files), so it is asked for only when they hash to that state
  const files = await sealedStateFiles(deps.runDir, now, sealed);
  const provenance = files === null ? null : await readProvenanceFacts(deps.runDir, preseal.run_id, files);
  if (provenance === null)
    deps.log.warn("sealing without provenance: its facts are unreadable", { phase: "seal" });
  deps.log.info("run_complete", { phase: "seal", run_id: preseal.run_id });
  let complete: Awaited<ReturnType<typeof deps.entitlement.runComplete>>;
  try {
    complete = await deps.entitlement.runComplete({
      run_id: preseal.run_id,
      ...sealed,
      ...(provenance === null ? {} : { provenance }),
    });
  } catch (error) {
    if (error instanceof RunnerError && error.code === "ENTITLEMENT_UNREACHABLE") {
      deps.log.warn("run_complete still unreachable; the pre-seal stays", { cause: error.message });
      return EXIT.preseal;
    }
    throw error;
  }
  await restoreSealedState(deps.runDir);
  assertSameState(
    await sealHashes(deps.runDir),
    sealed,
    `outputs of ${deps.runDir} do not match the state sent to run_complete`,
  );
  await writeSealFolder(deps.runDir, complete.seal, complete.log, complete.provenance);
  deps.log.info("sealed", { phase: "seal", seal_id: complete.seal.seal_id, run_dir: deps.runDir });
  return EXIT.success;
}

type SealedHashes = { readonly outputs_sha256: string; readonly run_manifest_sha256: string };

/** OUTPUTS_CHANGED unless the folder's output and manifest hashes are the expected ones. */
function assertSameState(actual: SealedHashes, expected: SealedHashes, what: string): void {
  if (
    actual.outputs_sha256 !== expected.outputs_sha256 ||
    actual.run_manifest_sha256 !== expected.run_manifest_sha256
  ) {
    throw new RunnerError(
      "OUTPUTS_CHANGED",
      `${what} (outputs ${actual.outputs_sha256} vs ${expected.outputs_sha256})`,
    );
  }
}
