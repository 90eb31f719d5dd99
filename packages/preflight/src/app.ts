import {
  afterHttpEdge,
  type EdgeErrorCodes,
  edgeServerOptions,
  type HttpEdgeOptions,
  httpEdge,
} from "@svc/http-edge";
import Fastify, { type FastifyInstance } from "fastify";
import { assertAuthorized, createTokenVerifier } from "./auth/bearer-auth.ts";
import type { PreflightConfig } from "./config.ts";
import { ERROR_REGISTRY, PreflightError, type PreflightErrorCode } from "./errors.ts";
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

/** A route the app registered, and whether it sits in the bearer-protected scope. */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
  readonly protected: boolean;
}

const registeredRoutes = new WeakMap<FastifyInstance, () => RegisteredRoute[]>();

/**
 * Every route the app registered (HEAD twins left out), once the app is ready: for the OpenAPI sync
 * test and the test that asks every protected route for a token.
 */
export function listRegisteredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return registeredRoutes.get(app)?.() ?? [];
}

/** The preflight codes the shared HTTP edge answers with (issue 29 item 4). */
const EDGE_CODES: EdgeErrorCodes<PreflightErrorCode> = {
  badRequest: "INVALID_INPUT",
  badBody: "INVALID_BODY",
  notFound: "ROUTE_NOT_FOUND",
  requestTimeout: "REQUEST_TIMEOUT",
  payloadTooLarge: "PAYLOAD_TOO_LARGE",
  unsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
  headersTooLarge: "HEADERS_TOO_LARGE",
  shuttingDown: "SHUTTING_DOWN",
  internal: "INTERNAL",
};

function validateNamespace(namespace: string): void {
  if (!DNS1123_LABEL.test(namespace))
    throw new PreflightError(
      "INVALID_INPUT",
      "namespace must be a DNS-1123 label (lowercase, digits, '-', at most 63)",
    );
}

/**
 * Builds the preflight HTTP app from injected dependencies: the eleven endpoints of spec §4.2,
 * bearer auth (spec §5.2), and one error shape `{ error: { code, message, request_id } }`.
 */
export function createApp(deps: AppDeps): FastifyInstance {
  const { config } = deps;
  const metrics = deps.metrics ?? createPreflightMetrics();
  const edge: HttpEdgeOptions<PreflightErrorCode> = {
    codes: EDGE_CODES,
    describe: (code) => ERROR_REGISTRY[code],
    bodyLimit: 64 * 1024,
    requestTimeoutMs: config.requestTimeoutMs,
    metrics,
    classify: (error) =>
      error instanceof PreflightError
        ? { code: error.code, message: error.message, headers: error.headers }
        : undefined,
  };
  const app = Fastify({
    logger: deps.logger ?? false,
    ...edgeServerOptions(edge),
    // Run ids reach 128 characters (docs/contracts/run-id.md); a longer path parameter still gets
    // to the handler, so it is refused with the grammar's message rather than the router's.
    routerOptions: { maxParamLength: 256 },
  });
  // spec §4.2: bodies are application/json only; the edge makes any other type (text/plain too) 415
  void app.register(httpEdge<PreflightErrorCode>(), edge);
  // Everything else once the edge is in (issue 41 item 3): a plugin that declares it as its dependency.
  void app.register(
    afterHttpEdge("svc-preflight-routes", (app) => registerPreflight(app, config, deps, metrics)),
  );
  return app;
}

function registerPreflight(
  app: FastifyInstance,
  config: PreflightConfig,
  deps: AppDeps,
  metrics: PreflightMetrics,
): void {
  const verify = createTokenVerifier(config.authTokens);

  const context: RouteContext = {
    config,
    clock: deps.clock ?? (() => new Date()),
    kube: deps.kube,
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

  // every route, and separately those registered in the protected scope (its own onRoute hook)
  const routes: { method: string; url: string }[] = [];
  const protectedRoutes = new Set<string>();
  const routeKey = (method: string, url: string) => `${method} ${url}`;
  const methodsOf = (method: string | string[]) => [method].flat().filter((m) => m !== "HEAD");
  app.addHook("onRoute", (route) => {
    for (const method of methodsOf(route.method)) routes.push({ method, url: route.url });
  });
  registeredRoutes.set(app, () =>
    routes.map((route) => ({ ...route, protected: protectedRoutes.has(routeKey(route.method, route.url)) })),
  );

  app.addHook("onRequest", async (request, reply) => {
    const route = request.routeOptions.url;
    if (route !== undefined && STREAMING_ROUTES.has(route))
      countBodyBytes(reply.raw, (bytes) => metrics.bytesStreamed.inc({ route }, bytes));
    const kind = route === undefined ? undefined : LAUNCH_ROUTES[route];
    if (kind !== undefined)
      reply.raw.once("close", () => {
        if (reply.raw.statusCode === 201) metrics.jobsLaunched.inc({ kind });
      });
  });

  // open: probes, the module list, the OpenAPI document and metrics (spec §4.2, §5.2)
  registerProbeRoutes(app, context);
  registerReadyRoutes(app, context);
  registerSystemRoutes(app, metrics);
  // everything else in one scope behind one bearer check (spec §5.2 rule 1); a route added here
  // is protected without a line of its own, and listRegisteredRoutes marks it so
  void app.register(async (scope) => {
    scope.addHook("onRoute", (route) => {
      for (const method of methodsOf(route.method)) protectedRoutes.add(routeKey(method, route.url));
    });
    scope.addHook("onRequest", async (request) => {
      if (config.authDisabled) return;
      assertAuthorized(request.headers.authorization, verify);
    });
    registerRunRoutes(scope, context);
    registerRunCheckRoutes(scope, context);
    registerModuleRoutes(scope, context);
    registerPipelineRoutes(scope, context);
    registerPodRoutes(scope, context);
    registerOutputRoutes(scope, context);
  });
}
