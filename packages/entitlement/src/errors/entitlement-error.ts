import { CodedError } from "@svc/core";
import type { EntitlementErrorCode } from "./error-registry.ts";

/**
 * The one base error of `@svc/entitlement` (ARCHITECTURE.md convention 6). Callers switch on
 * `code`; the HTTP edge maps it to a status through the registry.
 */
export class EntitlementError extends CodedError<EntitlementErrorCode> {
  constructor(code: EntitlementErrorCode, message?: string, options?: ErrorOptions) {
    super(code, message ?? "", options);
  }
}

/** True for an EntitlementError with the given code (or any code when omitted). */
export function isEntitlementError(value: unknown, code?: EntitlementErrorCode): value is EntitlementError {
  return value instanceof EntitlementError && (code === undefined || value.code === code);
}
