import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import type { EdgeErrorCodes } from "./edge-error-codes.ts";
import { type DescribeCode, errorEnvelope } from "./error-envelope.ts";

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (a header section over
 * 16 KiB, a request timeout, broken HTTP). Fastify's `clientErrorHandler` is the only place left to
 * answer them: with the envelope and a fresh request id, then the connection is closed (as Node
 * does, `_http_server.js` socketOnError).
 */
export function createClientErrorWriter<C extends string>(
  codes: EdgeErrorCodes<C>,
  describe: DescribeCode<C>,
): (error: Error & { code?: string }, socket: Socket) => void {
  const byNodeCode: Record<string, C> = {
    HPE_HEADER_OVERFLOW: codes.headersTooLarge,
    ERR_HTTP_REQUEST_TIMEOUT: codes.requestTimeout,
  };
  return (error, socket) => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const code = byNodeCode[error.code ?? ""] ?? codes.badRequest;
    const requestId = randomUUID();
    const { status, message: registered } = describe(code);
    const message = code === codes.badRequest ? "the request is not valid HTTP/1.1" : registered;
    const body = JSON.stringify(errorEnvelope(code, message, requestId));
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${status} ${code.replaceAll("_", " ")}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    socket.destroy(error);
  };
}
