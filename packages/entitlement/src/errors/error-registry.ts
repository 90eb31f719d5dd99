/**
 * Every error code the service answers with, its HTTP status and default message. The README's
 * error table mirrors this object; `error-registry.test.ts` keeps them in step. Status codes follow
 * the domain notes' table (401 token, 403 policy/admin, 402 exhausted, 409 reuse, 422 misorder).
 */
export const ERROR_REGISTRY = {
  REQUEST_INVALID: { status: 400, message: "the request is malformed" },
  SVG_UNREADABLE: { status: 400, message: "the upload is not a readable seal SVG" },
  AUTH_MISSING: { status: 401, message: "an Authorization: Bearer <ID token> header is required" },
  AUTH_MALFORMED: { status: 401, message: "the bearer token is not a well-formed JWT" },
  AUTH_EXPIRED: { status: 401, message: "the identity token has expired" },
  AUTH_WRONG_AUDIENCE: { status: 401, message: "the identity token is for another audience" },
  AUTH_UNTRUSTED_ISSUER: {
    status: 401,
    message: "the identity token comes from an issuer this service does not trust",
  },
  AUTH_INVALID: { status: 401, message: "the identity token failed verification" },
  PRINCIPAL_FORBIDDEN: { status: 403, message: "this principal is not allowed to use the service" },
  ADMIN_TOKEN_INVALID: { status: 403, message: "a valid X-SVC-ADMIN-TOKEN header is required" },
  SEAL_NOT_YOURS: { status: 403, message: "only the principal the seal was issued to may redeem it" },
  ENTITLEMENT_EXHAUSTED: { status: 402, message: "no run is left for this principal and mode" },
  NOT_FOUND: { status: 404, message: "no such route" },
  SEAL_NOT_FOUND: { status: 404, message: "no seal with this seal_id was issued here" },
  LOG_LEAF_NOT_FOUND: { status: 404, message: "the seal log holds no such leaf" },
  LOG_RANGE_INVALID: {
    status: 400,
    message: "the leaf index or tree sizes are outside the seal log (0 ≤ index < size ≤ current size)",
  },
  RUN_ID_CONFLICT: {
    status: 409,
    message: "this run_id is already used by another principal or with other parameters",
  },
  RUN_START_CONFLICT: { status: 409, message: "run_start was already recorded with other fields" },
  RUN_COMPLETE_CONFLICT: { status: 409, message: "run_complete was already recorded with other hashes" },
  SEAL_ALREADY_REDEEMED: { status: 409, message: "this principal already redeemed this seal" },
  IDEMPOTENCY_KEY_CONFLICT: {
    status: 409,
    message: "this idempotency_key was already used for another grant",
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: "the request body is too large" },
  MULTIPART_LIMIT: { status: 413, message: "the multipart body has too many parts, files or fields" },
  HEADERS_TOO_LARGE: { status: 431, message: "the request's header section exceeds 16 KiB" },
  REQUEST_TIMEOUT: { status: 408, message: "the request was not received in time" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "unsupported Content-Type" },
  LIFECYCLE_OUT_OF_ORDER: { status: 422, message: "lifecycle step called out of order" },
  SEAL_NOT_VERIFIED: { status: 422, message: "the seal is not VERIFIED or was not issued by this service" },
  FIELD_NOT_SEAL_SAFE: {
    status: 422,
    message: "a field that is signed and drawn on the seal holds a character outside its safe set",
  },
  SEAL_NOT_REDEEMABLE: {
    status: 422,
    message: "this seal's run was paid by a rerun credit; only a purchased run's seal can be redeemed",
  },
  PROVENANCE_MISMATCH: {
    status: 422,
    message: "the provenance sent with run_complete names other outputs or inputs than the hashes it seals",
  },
  STORE_UNAVAILABLE: { status: 503, message: "the ledger store is unavailable" },
  VERIFY_BUSY: {
    status: 503,
    message: "every seal verification worker is busy and the queue is full; retry shortly",
  },
  SHUTTING_DOWN: { status: 503, message: "the service is shutting down; retry on another replica or later" },
  INTERNAL: { status: 500, message: "internal error" },
} as const satisfies Record<string, { status: number; message: string }>;

export type EntitlementErrorCode = keyof typeof ERROR_REGISTRY;

/** Looks up status and default message for a code. */
export function describeErrorCode(code: EntitlementErrorCode): { status: number; message: string } {
  return ERROR_REGISTRY[code];
}
