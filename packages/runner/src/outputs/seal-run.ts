import type { EntitlementClient, SealBundleResponse } from "../lifecycle/entitlement-client.ts";
import type { Logger } from "../log.ts";
import { readProvenanceFacts } from "./provenance-facts.ts";
import { readClaimStrength } from "./read-claim-strength.ts";
import { writeSealFolder } from "./seal-files.ts";
import type { sealHashesWithFiles } from "./seal-hashes.ts";

/** What sealing needs of a run: the seal stage's context has it, and so has `svc-runner seal`. */
export interface SealRunContext {
  readonly runDir: string;
  readonly runId: string;
  readonly log: Logger;
  readonly entitlement: Pick<EntitlementClient, "runComplete">;
}

/** The hashed outputs to seal and the files behind `outputs_sha256` (seal-hashes.ts). */
export type RunHashes = Awaited<ReturnType<typeof sealHashesWithFiles>>;

/**
 * The sealing steps, once (issue 41 item 2), for the seal stage and `svc-runner seal` alike: the
 * provenance facts read from the hashed outputs (issue 30 item 6; a run whose facts are unreadable
 * is sealed without provenance rather than not sealed), the summary's claim strength (issue 37
 * item 3), run_complete asked to seal exactly these
 * hashes, and seal/ written from its answer — only seal/, which is outside the hashed set. A
 * failed run_complete is thrown as it came: whether it leaves a pre-seal is the caller's call.
 */
export async function sealRun(ctx: SealRunContext, hashes: RunHashes): Promise<SealBundleResponse> {
  const { files, outputs_sha256, run_manifest_sha256 } = hashes;
  const provenance = await readProvenanceFacts(ctx.runDir, ctx.runId, files);
  if (provenance === null)
    ctx.log.warn("provenance facts unreadable: sealing without provenance", { phase: "seal" });
  // issue 37 item 3: the claim strength the (hashed) summary states, signed and drawn on the seal
  const claim = await readClaimStrength(ctx.runDir, ctx.runId);
  ctx.log.info("run_complete", { phase: "seal", run_id: ctx.runId, claim_strength: claim });
  const complete = await ctx.entitlement.runComplete({
    run_id: ctx.runId,
    outputs_sha256,
    run_manifest_sha256,
    ...(claim === null ? {} : { claim_strength: claim }),
    ...(provenance === null ? {} : { provenance }),
  });
  // Everything the seal folder holds is written here, after run_complete answered.
  await writeSealFolder(ctx.runDir, complete.seal, complete.log, complete.provenance);
  ctx.log.info("sealed", { phase: "seal", seal_id: complete.seal.seal_id, run_dir: ctx.runDir });
  return complete.seal;
}
