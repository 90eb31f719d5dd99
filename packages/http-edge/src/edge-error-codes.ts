import type { FastifyError } from "fastify";

/**
 * Which of a service's own stable error codes answers each situation the edge meets before (or
 * instead of) a route. Each service keeps its registry and its code names (they are contracts);
 * the edge decides the situation the same way for both (issue 29 item 4).
 */
export interface EdgeErrorCodes<C extends string> {
  /** Malformed request line or URL, broken HTTP, any other 4xx Fastify raises. */
  readonly badRequest: C;
  /** A body that is not the JSON it claims to be (empty, invalid, wrong Content-Length). */
  readonly badBody: C;
  readonly notFound: C;
  readonly requestTimeout: C;
  readonly payloadTooLarge: C;
  readonly unsupportedMediaType: C;
  readonly headersTooLarge: C;
  /** A request that arrives while the service drains for shutdown. */
  readonly shuttingDown: C;
  readonly internal: C;
}

/** One answer: a code of the service's registry and the message to send with it. */
export interface EdgeAnswer<C extends string> {
  readonly code: C;
  readonly message?: string;
  /** Extra response headers (e.g. `WWW-Authenticate`, `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Maps an error Fastify (or Node's parser) raised to the service's code: everything a client can
 * send is a 4xx with a stable code, only our own faults are 500. `bodyLimit` names the limit in the
 * 413 message.
 */
export function classifyFrameworkError<C extends string>(
  error: Partial<FastifyError> & { message?: string },
  codes: EdgeErrorCodes<C>,
  bodyLimit: number,
): EdgeAnswer<C> {
  switch (error.code) {
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { code: codes.badBody, message: "the JSON body is empty" };
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return { code: codes.badBody, message: "the Content-Length does not match the body" };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return { code: codes.badBody, message: "the body is not valid JSON" };
  }
  if (error instanceof SyntaxError) return { code: codes.badBody, message: "the body is not valid JSON" };
  const status = error.statusCode ?? 500;
  if (status === 413) return { code: codes.payloadTooLarge, message: `the body exceeds ${bodyLimit} bytes` };
  if (status === 415 || status === 406) return { code: codes.unsupportedMediaType };
  if (status === 404) return { code: codes.notFound };
  if (status === 408) return { code: codes.requestTimeout };
  if (status === 431) return { code: codes.headersTooLarge };
  if (status === 503) return { code: codes.shuttingDown };
  if (status >= 400 && status < 500)
    return { code: codes.badRequest, message: (error.message ?? "bad request").slice(0, 200) };
  return { code: codes.internal };
}
