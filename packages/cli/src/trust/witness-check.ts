import { parseCheckpoint, type SealCheck, type VerifiedLogProof } from "@svc/core";
import type { WitnessFile } from "./log-witness-file.ts";

/**
 * The folder's checkpoint against the one `svc log watch` kept for the same log (issue 38 item 2):
 * of the same size, the two must be one tree, so another root is a fork shown to this user
 * (LOG_INCONSISTENT) though each checkpoint is signed. Of another size, telling needs a
 * consistency proof from the issuer (--issuer does that), so nothing is decided here: null. Null
 * too when the witness keeps nothing for the log.
 */
export function checkAgainstWitness(proof: VerifiedLogProof, witness: WitnessFile): SealCheck | null {
  for (const [name, kept] of Object.entries(witness.logs)) {
    const text = kept.checkpoint.slice(0, kept.checkpoint.lastIndexOf("\n\n") + 1);
    const checkpoint = parseCheckpoint(text);
    if (checkpoint === null || checkpoint.origin !== proof.origin || checkpoint.size !== proof.size) continue;
    if (checkpoint.rootHash.equals(proof.rootHash))
      return {
        name: "log_consistency",
        ok: true,
        detail: `the folder's checkpoint of ${proof.origin} at size ${proof.size} is the one svc log watch kept (${name}, seen ${kept.seen_at})`,
      };
    return {
      name: "log_consistency",
      ok: false,
      detail: `the folder's checkpoint of ${proof.origin} at size ${proof.size} has another root than the one svc log watch kept from ${kept.issuer} (seen ${kept.seen_at}): a forked log`,
      code: "LOG_INCONSISTENT",
    };
  }
  return null;
}
