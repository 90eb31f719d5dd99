import { defineErrorRegistry, type ErrorCodeEntry, RUN_FILES } from "@svc/core";

/**
 * Every error code the service answers with, under its HTTP status, with its default message
 * (core's one registry factory). The README's error table mirrors this object;
 * `error-registry.test.ts` keeps them in step. Status codes follow the domain notes' table (401
 * token, 403 policy/admin, 402 exhausted, 409 reuse, 422 misorder).
 */
export const ERROR_REGISTRY = defineErrorRegistry({
  400: {
    REQUEST_INVALID: "the request is malformed",
    SVG_UNREADABLE: "the upload is not a readable seal SVG",
    PROVENANCE_PATH_INVALID: `a path in run_complete's provenance is not one a run folder holds: relative, normalised, once, in svc-tree/v1 order, outside ${RUN_FILES.sealDir}`,
    LOG_RANGE_INVALID:
      "the leaf index or tree sizes are outside the seal log (0 ≤ index < size ≤ current size)",
  },
  401: {
    AUTH_MISSING: "an Authorization: Bearer <ID token> header is required",
    AUTH_MALFORMED: "the bearer token is not a well-formed JWT",
    AUTH_EXPIRED: "the identity token has expired",
    AUTH_WRONG_AUDIENCE: "the identity token is for another audience",
    AUTH_UNTRUSTED_ISSUER: "the identity token comes from an issuer this service does not trust",
    AUTH_INVALID: "the identity token failed verification",
  },
  402: {
    ENTITLEMENT_EXHAUSTED: "no run is left for this principal and mode",
  },
  403: {
    PRINCIPAL_FORBIDDEN: "this principal is not allowed to use the service",
    ADMIN_TOKEN_INVALID: "a valid X-SVC-ADMIN-TOKEN header is required",
    SEAL_NOT_YOURS: "only the principal the seal was issued to may redeem it",
  },
  404: {
    NOT_FOUND: "no such route",
    SEAL_NOT_FOUND: "no seal with this seal_id was issued here",
    LOG_LEAF_NOT_FOUND: "the seal log holds no such leaf",
  },
  408: {
    REQUEST_TIMEOUT: "the request was not received in time",
  },
  409: {
    RUN_ID_CONFLICT: "this run_id is already used by another principal or with other parameters",
    RUN_START_CONFLICT: "run_start was already recorded with other fields",
    RUN_COMPLETE_CONFLICT: "run_complete was already recorded with other hashes",
    SEAL_ALREADY_REDEEMED: "this principal already redeemed this seal",
    IDEMPOTENCY_KEY_CONFLICT: "this idempotency_key was already used for another grant",
  },
  413: {
    PAYLOAD_TOO_LARGE: "the request body is too large",
    MULTIPART_LIMIT: "the multipart body has too many parts, files or fields",
  },
  415: {
    UNSUPPORTED_MEDIA_TYPE: "unsupported Content-Type",
  },
  422: {
    LIFECYCLE_OUT_OF_ORDER: "lifecycle step called out of order",
    SEAL_NOT_VERIFIED: "the seal is not VERIFIED or was not issued by this service",
    FIELD_NOT_SEAL_SAFE:
      "a field that is signed and drawn on the seal holds a character outside its safe set",
    SEAL_NOT_REDEEMABLE:
      "this seal's run was paid by a rerun credit; only a purchased run's seal can be redeemed",
    PROVENANCE_MISMATCH:
      "the provenance sent with run_complete names other outputs or inputs than the hashes it seals",
  },
  431: {
    HEADERS_TOO_LARGE: "the request's header section exceeds 16 KiB",
  },
  500: {
    INTERNAL: "internal error",
  },
  503: {
    STORE_UNAVAILABLE: "the ledger store is unavailable",
    VERIFY_BUSY: "every seal verification worker is busy and the queue is full; retry shortly",
    SHUTTING_DOWN: "the service is shutting down; retry on another replica or later",
  },
});

export type EntitlementErrorCode = keyof typeof ERROR_REGISTRY;

/** Looks up status and default message for a code. */
export function describeErrorCode(code: EntitlementErrorCode): ErrorCodeEntry {
  return ERROR_REGISTRY[code];
}
