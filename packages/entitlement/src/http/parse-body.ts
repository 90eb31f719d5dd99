import type { z } from "zod";
import { EntitlementError } from "../errors/entitlement-error.ts";

/** Validates a request body; a failure is 400 REQUEST_INVALID naming every offending field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? undefined);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `field ${issue.path.length > 0 ? issue.path.join(".") : "(body)"}: ${issue.message}`,
  );
  throw new EntitlementError("REQUEST_INVALID", problems.join("; "));
}
