import { type CrypticPocketsResultFile, readRunFolder } from "@svc/core";
import { RunnerError } from "../runner-error.ts";

/**
 * results/cryptic_pockets.json through core's readRunFolder, checked against core's strict
 * crypticPocketsResultSchema (docs/contracts/cryptic-pockets-result.md), the type science's
 * cryptic_pockets writes its result in: the report cannot read a field the module does not write.
 * Null when the run has no such file (not planned, or the module failed: the coverage table says
 * which). The run wrote the file itself, so one that does not match is the runner's own fault
 * (INTERNAL), named by its first mismatch.
 */
export async function readCrypticPocketsResult(runDir: string): Promise<CrypticPocketsResultFile | null> {
  try {
    return await readRunFolder(runDir).crypticPocketsResult();
  } catch (error) {
    throw new RunnerError("INTERNAL", (error as Error).message, { cause: error });
  }
}
