import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CLAIM_SUMMARY_FILE, type ClaimStrength, isClaimStrength } from "@svc/core";

/**
 * The claim strength the run's results/summary.json states, for run_complete to sign (issue 37
 * item 3), or null when the summary states none (a run stopped by a signal, or written by a runner
 * before it): the seal is then issued without one and drawn as before. Read from the sealed file
 * itself, never from memory, so the signed value is the one every verifier finds in the folder.
 */
export async function readClaimStrength(runDir: string): Promise<ClaimStrength | null> {
  try {
    const summary = JSON.parse(await readFile(join(runDir, CLAIM_SUMMARY_FILE), "utf8")) as {
      claim_strength?: unknown;
    };
    return isClaimStrength(summary?.claim_strength) ? summary.claim_strength : null;
  } catch {
    return null;
  }
}
