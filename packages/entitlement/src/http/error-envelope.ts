import { CoreError } from "@svc/core";
import type { EdgeAnswer, EdgeErrorCodes } from "@svc/http-edge";
import type { FastifyError, FastifyRequest } from "fastify";
import { EntitlementError } from "../errors/entitlement-error.ts";
import type { EntitlementErrorCode } from "../errors/error-registry.ts";
import { MULTIPART_LIMITS } from "./read-svg-upload.ts";

// One error envelope for everything the service answers (issue 16 item 4, contract "Errors"):
// { error: { code, message, request_id } }; the shared edge (@svc/http-edge) sends it, and these
// are the registry codes it answers with.

/** The service's codes for what the HTTP edge meets before or instead of a route (issue 29 item 4). */
export const EDGE_CODES: EdgeErrorCodes<EntitlementErrorCode> = {
  badRequest: "REQUEST_INVALID",
  badBody: "REQUEST_INVALID",
  notFound: "NOT_FOUND",
  requestTimeout: "REQUEST_TIMEOUT",
  payloadTooLarge: "PAYLOAD_TOO_LARGE",
  unsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
  headersTooLarge: "HEADERS_TOO_LARGE",
  shuttingDown: "SHUTTING_DOWN",
  internal: "INTERNAL",
};

// @fastify/multipart's limit errors carry 413 like a too large body: name the limit instead
const MULTIPART_LIMIT_MESSAGES: Record<string, string> = {
  FST_PARTS_LIMIT: `the multipart body has more than ${MULTIPART_LIMITS.parts} parts`,
  FST_FILES_LIMIT: `the multipart body has more than ${MULTIPART_LIMITS.files} file`,
  FST_FIELDS_LIMIT: `the multipart body has more than ${MULTIPART_LIMITS.fields} fields`,
};

/** The service's own errors → their answer; undefined leaves the error to the edge's mapping. */
export function classifyEntitlementError(
  error: FastifyError,
  request: FastifyRequest,
): EdgeAnswer<EntitlementErrorCode> | undefined {
  if (error instanceof EntitlementError) return { code: error.code, message: error.message || undefined };
  // the signer's own fence (core issueSealBundle): text stored before the routes checked it
  if (error instanceof CoreError && error.code === "SEAL_TEXT_UNSAFE")
    return { code: "FIELD_NOT_SEAL_SAFE", message: error.message };
  const multipartLimit = MULTIPART_LIMIT_MESSAGES[error.code];
  if (multipartLimit !== undefined) return { code: "MULTIPART_LIMIT", message: multipartLimit };
  // a broken multipart form (truncated, bad boundary) fails inside busboy, with no status
  if (error.statusCode === undefined && request.isMultipart())
    return { code: "REQUEST_INVALID", message: "field file: malformed multipart body" };
  return undefined;
}
