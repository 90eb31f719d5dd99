import { describeUnsafeSealText, type SealTextField } from "@svc/core";
import { EntitlementError } from "../errors/entitlement-error.ts";

/**
 * Refuses (422 FIELD_NOT_SEAL_SAFE, every offending field named) values that would be signed and
 * drawn on a seal but lie outside core's safe set for their field (issue 9 item 2). Called before
 * the step that stores them, so a run is never charged or started with text it could not seal.
 */
export function assertSealSafe(fields: readonly (readonly [SealTextField, string])[]): void {
  const problems = fields.flatMap(([field, value]) => describeUnsafeSealText(field, value) ?? []);
  if (problems.length > 0) throw new EntitlementError("FIELD_NOT_SEAL_SAFE", problems.join("; "));
}
