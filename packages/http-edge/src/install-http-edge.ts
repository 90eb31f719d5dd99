import type { ServerOptions } from "node:http";
import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginCallback,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from "fastify";
import fastifyPlugin from "fastify-plugin";
import { createClientErrorWriter } from "./client-error.ts";
import { bodyPendingUnread, closeUnread } from "./close-unread.ts";
import { classifyFrameworkError, type EdgeAnswer, type EdgeErrorCodes } from "./edge-error-codes.ts";
import { type DescribeCode, errorEnvelope } from "./error-envelope.ts";
import type { HttpMetrics } from "./http-metrics.ts";
import { requestIdOf } from "./request-id.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** From now on every new request is the shutting-down answer (called on SIGTERM, before close). */
    startDraining(): void;
  }
}

/** The drain gate's refusal, thrown so it is answered (and its connection handled) like any error. */
class EdgeRefusal<C extends string> extends Error {
  readonly answer: EdgeAnswer<C>;
  constructor(answer: EdgeAnswer<C>) {
    super(answer.code);
    this.answer = answer;
  }
}

/** What a service tells the edge about itself (ARCHITECTURE.md convention 10: one HTTP edge). */
export interface HttpEdgeOptions<C extends string> {
  readonly codes: EdgeErrorCodes<C>;
  readonly describe: DescribeCode<C>;
  /** The largest body Fastify buffers; named in the 413 message. */
  readonly bodyLimit: number;
  /**
   * The longest a request may take to arrive, headers and body, on every route (408 in the
   * envelope, then the connection is closed): see {@link requestTimeoutsOf}.
   */
  readonly requestTimeoutMs: number;
  readonly metrics: HttpMetrics;
  /** The service's own errors (its error class, its libraries') → answer; undefined for the rest. */
  readonly classify?: (error: FastifyError, request: FastifyRequest) => EdgeAnswer<C> | undefined;
  /** Runs once an error's answer is chosen, before it is sent (headers, connection handling). */
  readonly beforeErrorAnswer?: (answer: EdgeAnswer<C>, request: FastifyRequest, reply: FastifyReply) => void;
}

/**
 * The request time limit a service may configure (issue 38 item 4), and its default: 60 s, the
 * seal upload's own default bound (SVC_UPLOAD_TIMEOUT_MS). JSON bodies are a few KB; the largest,
 * a 16 MiB run_complete, needs ~2.3 Mbit/s to arrive within it.
 */
export const REQUEST_TIMEOUT_BOUNDS = { min: 1_000, max: 600_000, fallback: 60_000 } as const;

/**
 * Node's request timeouts for a request time limit of `requestTimeoutMs`. Fastify turns Node's
 * `requestTimeout` off (0), so a client sending a byte every few seconds held a connection and a
 * request as long as it liked (issue 38 item 4: 300 such connections to a JSON route all open at
 * 90 s). Node checks the limit every `connectionsCheckingInterval` (30 s by default): here every
 * quarter of the limit, at most every second, so a request is cut within the limit plus that.
 * The headers get Node's own default, 60 s, or the whole limit when shorter (Node requires
 * headersTimeout <= requestTimeout).
 */
export function requestTimeoutsOf(requestTimeoutMs: number): {
  requestTimeout: number;
  headersTimeout: number;
  connectionsCheckingInterval: number;
} {
  const { min, max } = REQUEST_TIMEOUT_BOUNDS;
  if (!(Number.isInteger(requestTimeoutMs) && requestTimeoutMs >= min && requestTimeoutMs <= max))
    throw new RangeError(
      `a request time limit must be an integer of ${min}-${max} ms, got ${requestTimeoutMs}`,
    );
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(60_000, requestTimeoutMs),
    connectionsCheckingInterval: Math.min(1_000, Math.floor(requestTimeoutMs / 4)),
  };
}

/**
 * The Fastify constructor options of the edge: request ids (the caller's `X-Request-Id` kept when
 * well-formed), the request time limit on every route, and Node's and Fastify's own refusals (408,
 * 431, malformed URLs, broken HTTP, 503 while closing) answered in the service's envelope instead
 * of Fastify's.
 */
export function edgeServerOptions<C extends string>(
  options: HttpEdgeOptions<C>,
): Pick<
  FastifyServerOptions,
  | "genReqId"
  | "requestIdHeader"
  | "bodyLimit"
  | "requestTimeout"
  | "return503OnClosing"
  | "clientErrorHandler"
  | "frameworkErrors"
> & { http: ServerOptions } {
  const timeouts = requestTimeoutsOf(options.requestTimeoutMs);
  return {
    requestTimeout: timeouts.requestTimeout,
    http: timeouts,
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: options.bodyLimit,
    return503OnClosing: false,
    clientErrorHandler: createClientErrorWriter(options.codes, options.describe),
    frameworkErrors: (error, request, reply) => {
      const answer = classifyFrameworkError(error, options.codes, options.bodyLimit);
      const message =
        answer.code === options.codes.badRequest ? `malformed request: ${error.message}` : answer.message;
      void sendAnswer(
        reply as unknown as FastifyReply,
        request as FastifyRequest,
        { ...answer, message },
        options,
      );
    },
  };
}

function sendAnswer<C extends string>(
  reply: FastifyReply,
  request: FastifyRequest,
  answer: EdgeAnswer<C>,
  options: HttpEdgeOptions<C>,
): FastifyReply {
  const { status, message } = options.describe(answer.code);
  return reply
    .code(status)
    .header("x-request-id", request.id)
    .headers(answer.headers ?? {})
    .send(errorEnvelope(answer.code, answer.message ?? message, request.id));
}

/** The edge plugin's name: a service's route plugins list it in `dependencies`, so they cannot load without it. */
export const HTTP_EDGE_PLUGIN = "svc-http-edge";

/**
 * The edge as a Fastify plugin (issue 41 item 3): `await app.register(httpEdge<C>(), options)` on an app
 * built with {@link edgeServerOptions}, before the routes. Not encapsulated (fastify-plugin): its hooks,
 * error and not-found handlers are the app's. Named {@link HTTP_EDGE_PLUGIN} so route plugins declare it.
 */
export function httpEdge<C extends string>(): FastifyPluginCallback<HttpEdgeOptions<C>> {
  return fastifyPlugin<HttpEdgeOptions<C>>(
    (app, options, done) => {
      installHttpEdge(app, options);
      done();
    },
    {
      name: HTTP_EDGE_PLUGIN,
      fastify: "5.x",
    },
  );
}

/**
 * A service's routes as a plugin that declares the edge as its dependency: registered after
 * {@link httpEdge}, Fastify loads it once the edge's hooks and handlers are in place, and refuses to
 * boot when the edge is missing. Not encapsulated: its hooks are the app's.
 */
export function afterHttpEdge(name: string, register: (app: FastifyInstance) => void): FastifyPluginCallback {
  return fastifyPlugin(
    (app, _options, done) => {
      register(app);
      done();
    },
    {
      name,
      fastify: "5.x",
      dependencies: [HTTP_EDGE_PLUGIN],
    },
  );
}

/**
 * Installs the edge on an app built with {@link edgeServerOptions}, before any route (what {@link httpEdge} registers): the request id
 * echoed on every answer, the drain gate, request metrics, one error handler and the not-found
 * answer, all in the service's envelope `{ error: { code, message, request_id } }`.
 */
function installHttpEdge<C extends string>(app: FastifyInstance, options: HttpEdgeOptions<C>): void {
  const { codes, describe, metrics } = options;
  // set on SIGTERM (startDraining) or when Fastify runs its preClose hooks
  let draining = false;
  app.decorate("startDraining", () => {
    draining = true;
  });
  app.addHook("preClose", async () => {
    draining = true;
  });
  // JSON sent as text/plain is 415 as documented, not a string that fails validation (issue 16)
  app.removeContentTypeParser("text/plain");

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    // counted when the response closes: onResponse does not run for hijacked (streamed) replies
    reply.raw.once("close", () => {
      const route = request.routeOptions.url ?? "unmatched";
      metrics.httpRequests.inc({ method: request.method, route, status: String(reply.raw.statusCode) });
      metrics.httpDuration.observe({ route }, reply.elapsedTime / 1000);
    });
    if (draining) {
      // a request on a kept-alive connection after SIGTERM: refuse it, ask to retry elsewhere
      reply.header("connection", "close").header("retry-after", "1");
      throw new EdgeRefusal({ code: codes.shuttingDown });
    }
  });

  // issue 38 item 4: an answer sent while the body is still arriving and unread (refused in an
  // onRequest hook: no token, a bad one, a drain; or a route that never reads its body) closes
  // the connection without reading that body; Node would read it to the end to keep the
  // connection alive. A body refused part-way (413, 408) is the service's to handle
  // (beforeErrorAnswer).
  app.addHook("onSend", async (request, reply) => {
    if (bodyPendingUnread(request.raw)) {
      reply.header("connection", "close");
      closeUnread(request.raw);
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer =
      error instanceof EdgeRefusal
        ? (error.answer as EdgeAnswer<C>)
        : (options.classify?.(error, request) ?? classifyFrameworkError(error, codes, options.bodyLimit));
    // shedding load (shutting down, a busy pool) is not a fault of ours: info, like a 4xx
    const status = describe(answer.code).status;
    if (status >= 500 && status !== 503)
      request.log.error({ err: error, code: answer.code }, "request failed");
    else request.log.info({ code: answer.code }, "request refused");
    options.beforeErrorAnswer?.(answer, request, reply);
    return sendAnswer(reply, request, answer, options);
  });
  app.setNotFoundHandler((request, reply) =>
    sendAnswer(
      reply,
      request,
      { code: codes.notFound, message: `no endpoint ${request.method} ${request.url.split("?")[0]}` },
      options,
    ),
  );
}
