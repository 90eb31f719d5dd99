import { registeredErrorClass } from "@svc/core";
import { type EntitlementErrorCode, ERROR_REGISTRY } from "./error-registry.ts";

/**
 * The one base error of `@svc/entitlement` (ARCHITECTURE.md convention 6). Callers switch on
 * `code`; the HTTP edge maps it to a status through the registry, whose message it carries unless
 * a more precise one is given.
 */
export class EntitlementError extends registeredErrorClass(ERROR_REGISTRY) {}

/** True for an EntitlementError with the given code (or any code when omitted). */
export function isEntitlementError(value: unknown, code?: EntitlementErrorCode): value is EntitlementError {
  return value instanceof EntitlementError && (code === undefined || value.code === code);
}
