import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { CoreError } from "@svc/core";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { describeErrorCode, type EntitlementErrorCode } from "../errors/error-registry.ts";
import { MAX_SVG_BYTES, MULTIPART_LIMITS } from "./read-svg-upload.ts";

// One error envelope for everything the service answers (issue 16 item 4, contract "Errors"):
// { error: { code, message, request_id } }, the code from the registry.

/** The envelope body of `code`, with the registry's message unless a more exact one is given. */
export function errorBody(code: EntitlementErrorCode, requestId: string, message?: string) {
  return { error: { code, message: message ?? describeErrorCode(code).message, request_id: requestId } };
}

/** Sends the envelope with the registry's status for `code`. */
export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  code: EntitlementErrorCode,
  message?: string,
): FastifyReply {
  return reply.status(describeErrorCode(code).status).send(errorBody(code, request.id, message));
}

// @fastify/multipart's limit errors carry 413 like a too large body: name the limit instead
const MULTIPART_LIMIT_MESSAGES: Record<string, string> = {
  FST_PARTS_LIMIT: `the multipart body has more than ${MULTIPART_LIMITS.parts} parts`,
  FST_FILES_LIMIT: `the multipart body has more than ${MULTIPART_LIMITS.files} file`,
  FST_FIELDS_LIMIT: `the multipart body has more than ${MULTIPART_LIMITS.fields} fields`,
};

/** Everything a client can send maps to a 4xx with a stable code; only our own faults are 500. */
export function toErrorCode(error: FastifyError): { code: EntitlementErrorCode; message: string } {
  if (error instanceof EntitlementError)
    return { code: error.code, message: error.message || describeErrorCode(error.code).message };
  // the signer's own fence (core issueSealBundle): text stored before the routes checked it
  if (error instanceof CoreError && error.code === "SEAL_TEXT_UNSAFE")
    return { code: "FIELD_NOT_SEAL_SAFE", message: error.message };
  const multipartLimit = MULTIPART_LIMIT_MESSAGES[error.code];
  if (multipartLimit !== undefined) return { code: "MULTIPART_LIMIT", message: multipartLimit };
  const status = error.statusCode ?? 500;
  if (status === 413)
    return { code: "PAYLOAD_TOO_LARGE", message: `the body exceeds ${MAX_SVG_BYTES} bytes` };
  if (status === 415 || status === 406)
    return { code: "UNSUPPORTED_MEDIA_TYPE", message: describeErrorCode("UNSUPPORTED_MEDIA_TYPE").message };
  if (status === 404) return { code: "NOT_FOUND", message: describeErrorCode("NOT_FOUND").message };
  if (status === 503) return { code: "SHUTTING_DOWN", message: describeErrorCode("SHUTTING_DOWN").message };
  if (status >= 400 && status < 500)
    return { code: "REQUEST_INVALID", message: `field (body): ${error.message.slice(0, 200)}` };
  return { code: "INTERNAL", message: describeErrorCode("INTERNAL").message };
}

const CLIENT_ERRORS: Record<string, EntitlementErrorCode> = {
  HPE_HEADER_OVERFLOW: "HEADERS_TOO_LARGE",
  ERR_HTTP_REQUEST_TIMEOUT: "REQUEST_TIMEOUT",
};

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (a header section over
 * 16 KiB, a request timeout, broken HTTP). Fastify's `clientErrorHandler` is the only place left to
 * answer them: with the envelope and a fresh request id, then the connection is closed (as Node
 * does, `_http_server.js` socketOnError).
 */
export function writeClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const code = CLIENT_ERRORS[error.code ?? ""] ?? "REQUEST_INVALID";
  const requestId = randomUUID();
  const message = code === "REQUEST_INVALID" ? "the request is not valid HTTP/1.1" : undefined;
  const body = JSON.stringify(errorBody(code, requestId, message));
  const { status } = describeErrorCode(code);
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${code.replaceAll("_", " ")}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
