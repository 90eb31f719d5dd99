import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { assertAuthorized, createTokenVerifier } from "./auth/bearer-auth.ts";
import type { PreflightConfig } from "./config.ts";
import { ERROR_REGISTRY, PreflightError } from "./errors.ts";
import { countBodyBytes } from "./http/count-body-bytes.ts";
import { createPreflightMetrics, type PreflightMetrics } from "./http/metrics.ts";
import type { KubeGateway } from "./kube/kube-gateway.ts";
import { DNS1123_LABEL } from "./kube/label-syntax.ts";
import type { RouteContext } from "./route-context.ts";
import { registerModuleRoutes } from "./routes/module-routes.ts";
import { registerOutputRoutes } from "./routes/output-routes.ts";
import { registerPipelineRoutes } from "./routes/pipeline-routes.ts";
import { registerPodRoutes } from "./routes/pod-routes.ts";
import { registerProbeRoutes } from "./routes/probe-routes.ts";
import { registerReadyRoutes } from "./routes/ready-routes.ts";
import { registerRunCheckRoutes } from "./routes/run-check-routes.ts";
import { registerRunRoutes } from "./routes/run-routes.ts";
import { registerSystemRoutes } from "./routes/system-routes.ts";

/** What {@link createApp} wires together (ARCHITECTURE.md convention 2). */
export interface AppDeps {
  config: PreflightConfig;
  /** null when no Kubernetes configuration was found: Kubernetes endpoints then answer 503. */
  kube: KubeGateway | null;
  /** Clock for run ids and Job names; default the system clock. */
  clock?: () => Date;
  /** Fastify logger setting; default off (main.ts turns it on). */
  logger?: boolean | Record<string, unknown>;
  /** Prometheus registry served at /metrics; default a fresh one per app. */
  metrics?: PreflightMetrics;
}

// Endpoints whose bodies are counted as streamed bytes, and those that launch Jobs (by kind).
const STREAMING_ROUTES = new Set([
  "/api/outputs/download",
  "/api/outputs/repro-pack.tgz",
  "/api/runs/:runId/logs",
]);
const LAUNCH_ROUTES: Record<string, string> = {
  "/api/pipeline/run": "pipeline",
  "/api/modules/computational/smoke": "smoke",
};

const registeredRoutes = new WeakMap<FastifyInstance, { method: string; url: string }[]>();

/** Method and URL of every route the app registered (HEAD twins left out); for the OpenAPI sync test. */
export function listRegisteredRoutes(app: FastifyInstance): { method: string; url: string }[] {
  return [...(registeredRoutes.get(app) ?? [])];
}

function validateNamespace(namespace: string): void {
  if (!DNS1123_LABEL.test(namespace))
    throw new PreflightError(
      "INVALID_INPUT",
      "namespace must be a DNS-1123 label (lowercase, digits, '-', at most 63)",
    );
}

function errorBody(code: keyof typeof ERROR_REGISTRY, message: string, requestId: string) {
  return { error: { code, message, request_id: requestId } };
}

// Fastify's own errors (body parsing, limits) become registry codes; nothing a client sends
// produces a 500 or a stack trace.
function toPreflightError(error: unknown): PreflightError {
  if (error instanceof PreflightError) return error;
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  switch (fastifyError.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new PreflightError("UNSUPPORTED_MEDIA_TYPE");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new PreflightError("PAYLOAD_TOO_LARGE");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new PreflightError("INVALID_BODY", "the JSON body is empty");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new PreflightError("INVALID_BODY", "the Content-Length does not match the body");
  }
  if (error instanceof SyntaxError || fastifyError.code === "FST_ERR_CTP_INVALID_JSON_BODY")
    return new PreflightError("INVALID_BODY", "the body is not valid JSON");
  if (
    typeof fastifyError.statusCode === "number" &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  )
    return new PreflightError("INVALID_INPUT", fastifyError.message ?? "bad request");
  return new PreflightError("INTERNAL");
}

/**
 * Builds the preflight HTTP app from injected dependencies: the eleven endpoints of spec §4.2,
 * bearer auth (spec §5.2), and one error shape `{ error: { code, message, request_id } }`.
 */
export function createApp(deps: AppDeps): FastifyInstance {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    genReqId: () => randomUUID(),
    bodyLimit: 64 * 1024,
    // Run ids reach 128 characters (docs/contracts/run-id.md); a longer path parameter still gets
    // to the handler, so it is refused with the grammar's message rather than the router's.
    routerOptions: { maxParamLength: 256 },
    // Malformed URLs (bad percent-encoding) get the same JSON error shape as everything else.
    frameworkErrors: (error, request, reply) => {
      void (reply as unknown as FastifyReply)
        .code(400)
        .header("x-request-id", request.id)
        .send(errorBody("INVALID_INPUT", `malformed request: ${error.message}`, request.id));
    },
  });
  // spec §4.2: bodies are application/json only; any other type (text/plain included) is 415.
  app.removeContentTypeParser("text/plain");
  const verify = createTokenVerifier(config.authTokens);

  const context: RouteContext = {
    config,
    clock: deps.clock ?? (() => new Date()),
    kube: deps.kube,
    requireAuth: async (request) => {
      if (config.authDisabled) return;
      assertAuthorized(request.headers.authorization, verify);
    },
    requireKube: () => {
      if (!deps.kube) {
        const reason = config.kube.mode === "none" ? ` (${config.kube.reason})` : "";
        throw new PreflightError(
          "KUBERNETES_NOT_CONFIGURED",
          `${ERROR_REGISTRY.KUBERNETES_NOT_CONFIGURED.message}${reason}`,
        );
      }
      return deps.kube;
    },
    validateNamespace,
    checkNamespace: (namespace) => {
      validateNamespace(namespace);
      // Issue 5: a token holder must not launch Jobs or read pods outside the configured namespaces.
      if (!config.allowedNamespaces.includes(namespace))
        throw new PreflightError(
          "NAMESPACE_NOT_ALLOWED",
          config.allowedNamespaces.length === 0
            ? "no namespace is allowed: set SVC_ALLOWED_NAMESPACES or POD_NAMESPACE"
            : `namespace ${namespace} is not allowed; allowed: ${config.allowedNamespaces.join(", ")}`,
        );
    },
  };

  const metrics = deps.metrics ?? createPreflightMetrics();
  const routes: { method: string; url: string }[] = [];
  registeredRoutes.set(app, routes);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat())
      if (method !== "HEAD") routes.push({ method, url: route.url });
  });

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    const route = request.routeOptions.url;
    if (route !== undefined && STREAMING_ROUTES.has(route))
      countBodyBytes(reply.raw, (bytes) => metrics.bytesStreamed.inc({ route }, bytes));
    // onResponse does not run for hijacked replies (downloads), so requests are counted on close.
    reply.raw.once("close", () => {
      const status = reply.raw.statusCode;
      metrics.httpRequests.inc({
        method: request.method,
        route: route ?? "unmatched",
        status: String(status),
      });
      const kind = route === undefined ? undefined : LAUNCH_ROUTES[route];
      if (kind !== undefined && status === 201) metrics.jobsLaunched.inc({ kind });
    });
  });

  app.setErrorHandler((error, request, reply) => {
    const mapped = toPreflightError(error);
    if (mapped.code === "INTERNAL") request.log.error({ err: error }, "unhandled error");
    void reply
      .code(mapped.status)
      .headers(mapped.headers)
      .send(errorBody(mapped.code, mapped.message, request.id));
  });
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send(
        errorBody(
          "ROUTE_NOT_FOUND",
          `no endpoint ${request.method} ${request.url.split("?")[0]}`,
          request.id,
        ),
      );
  });

  registerProbeRoutes(app, context);
  registerReadyRoutes(app, context);
  registerSystemRoutes(app, metrics);
  registerRunRoutes(app, context);
  registerRunCheckRoutes(app, context);
  registerModuleRoutes(app, context);
  registerPipelineRoutes(app, context);
  registerPodRoutes(app, context);
  registerOutputRoutes(app, context);
  return app;
}
