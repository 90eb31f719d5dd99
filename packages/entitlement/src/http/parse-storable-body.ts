import type { z } from "zod";
import { findUnstorableText } from "../domain/storable-text.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";

/**
 * Validates a request body; a failure is 400 REQUEST_INVALID naming every offending field. Every
 * string that passes the schema must also be storable text (domain/storable-text.ts), so nothing
 * reaches either store that it would refuse or alter.
 */
export function parseStorableBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? undefined);
  if (result.success) {
    const problems = findUnstorableText(result.data);
    if (problems.length > 0) throw new EntitlementError("REQUEST_INVALID", problems.join("; "));
    return result.data;
  }
  const problems = result.error.issues.map(
    (issue) => `field ${issue.path.length > 0 ? issue.path.join(".") : "(body)"}: ${issue.message}`,
  );
  throw new EntitlementError("REQUEST_INVALID", problems.join("; "));
}
