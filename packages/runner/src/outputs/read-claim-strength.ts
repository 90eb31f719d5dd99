import { type ClaimStrength, isClaimStrength, readRunFolder } from "@svc/core";

/**
 * The claim strength the run's summary states, for run_complete to sign (issue 37 item 3), or null
 * when the summary states none (a run stopped by a signal, or written by a runner before it): the
 * seal is then issued without one and drawn as before. Read from the sealed file itself, never from
 * memory, so the signed value is the one every verifier finds in the folder.
 */
export async function readClaimStrength(runDir: string, runId?: string): Promise<ClaimStrength | null> {
  try {
    const summary = (await readRunFolder(runDir, runId === undefined ? {} : { runId }).summary()) as {
      claim_strength?: unknown;
    } | null;
    return isClaimStrength(summary?.claim_strength) ? summary.claim_strength : null;
  } catch {
    return null;
  }
}
