import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import multipart from "@fastify/multipart";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from "fastify";
import type { AppDeps } from "./app-deps.ts";
import type { VerifiedCaller } from "./auth/token-verifier.ts";
import { EntitlementError } from "./errors/entitlement-error.ts";
import { describeErrorCode } from "./errors/error-registry.ts";
import { sendError, toErrorCode, writeClientError } from "./http/error-envelope.ts";
import { lingerAfterAnswer } from "./http/lingering-close.ts";
import { countLedgerEvents, createServiceMetrics } from "./http/metrics.ts";
import { MAX_SVG_BYTES, MULTIPART_LIMITS } from "./http/read-svg-upload.ts";
import { readSvgBody } from "./http/svg-upload.ts";
import { UPLOAD_BURST_BYTES, UPLOAD_BYTES_PER_SECOND, UploadBudget } from "./http/upload-budget.ts";
import { UPLOAD_TIMEOUTS } from "./http/upload-clock.ts";
import { registerAccountRoutes } from "./routes/account-routes.ts";
import { registerAdminRoutes } from "./routes/admin-routes.ts";
import { registerDevIssuerRoutes } from "./routes/dev-issuer-routes.ts";
import { registerEntitlementRoutes } from "./routes/entitlement-routes.ts";
import { registerLogRoutes } from "./routes/log-routes.ts";
import { registerSealRoutes } from "./routes/seal-routes.ts";
import { registerSystemRoutes } from "./routes/system-routes.ts";
import { registerVerifyPageRoutes } from "./routes/verify-page-routes.ts";
import { createSealVerifyPool } from "./seal/seal-verify-pool.ts";

declare module "fastify" {
  interface FastifyRequest {
    caller: VerifiedCaller | null;
  }
  interface FastifyInstance {
    /** From now on every new request is 503 SHUTTING_DOWN (main.ts calls it on SIGTERM, before close). */
    startDraining(): void;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Builds the HTTP app from its dependencies; it does not listen. */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const metrics = deps.metrics ?? createServiceMetrics();
  deps.store.subscribe(countLedgerEvents(metrics));
  const sealVerifier = deps.sealVerifier ?? createSealVerifyPool({ trustedKeys: deps.trustedKeys });
  const app = Fastify({
    logger: deps.logger ?? false,
    // a caller's X-Request-Id is kept when it is short and plain, otherwise a fresh one
    genReqId: (request) => {
      const header = request.headers["x-request-id"];
      return typeof header === "string" && REQUEST_ID.test(header) ? header : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: MAX_SVG_BYTES,
    // Fastify's own 503 while closing and its client/framework errors are outside our envelope:
    // the shutdown gate below, writeClientError and frameworkErrors answer them instead
    return503OnClosing: false,
    clientErrorHandler: writeClientError,
    frameworkErrors: (error, request, reply) => {
      const { code, message } = toErrorCode(error);
      return sendError(reply, request, code, message);
    },
  });
  // set on SIGTERM (startDraining) or when Fastify runs its preClose hooks
  let closing = false;
  app.decorate("startDraining", () => {
    closing = true;
  });
  app.addHook("preClose", async () => {
    closing = true;
  });
  if (deps.sealVerifier === undefined) app.addHook("onClose", async () => sealVerifier.close());
  app.decorateRequest("caller", null);
  // read as it streams in, not buffered by Fastify: the bytes go to a verification worker
  // untouched, and an upload over the verifier's cap is only counted (issue 9 item 7)
  // every upload's bytes are charged to one budget, so uploads cannot take the event loop (item 7)
  const uploadBudget = new UploadBudget(UPLOAD_BYTES_PER_SECOND, UPLOAD_BURST_BYTES);
  const uploadTimeouts = deps.uploadTimeouts ?? UPLOAD_TIMEOUTS;
  app.addContentTypeParser("image/svg+xml", (request: FastifyRequest, payload: IncomingMessage) =>
    readSvgBody(payload, request.headers["content-length"], MAX_SVG_BYTES, uploadBudget, uploadTimeouts),
  );
  // JSON sent as text/plain is 415 as documented, not a string that fails validation (issue 16)
  app.removeContentTypeParser("text/plain");
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  // zod validates (parseStorableBody); route schemas only document, so no ajv validation or serializer
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "svc entitlement and seal service",
        version: "1.0.0",
        description:
          "Entitlement ledger, run lifecycle and seal issuance/verification. Errors: { error: { code, message, request_id } }.",
      },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", bearerFormat: "OIDC ID token" },
          admin: { type: "apiKey", in: "header", name: "X-SVC-ADMIN-TOKEN" },
        },
      },
    },
  });

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    if (closing) {
      // a request that arrives on a kept-alive connection after SIGTERM: refuse it, ask to retry
      reply.header("connection", "close").header("retry-after", "1");
      throw new EntitlementError("SHUTTING_DOWN");
    }
  });
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ route }, reply.elapsedTime / 1000);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { code, message } =
      // a broken multipart form (truncated, bad boundary) fails inside busboy, with no status
      error.statusCode === undefined && !(error instanceof EntitlementError) && request.isMultipart()
        ? { code: "REQUEST_INVALID" as const, message: "field file: malformed multipart body" }
        : toErrorCode(error);
    // shedding load (busy verifiers, shutting down) is not a fault of ours: info, like a 4xx
    const shed = code === "SHUTTING_DOWN" || code === "VERIFY_BUSY";
    if (describeErrorCode(code).status >= 500 && !shed)
      request.log.error({ err: error, code }, "request failed");
    else request.log.info({ code }, "request refused");
    // a full verification queue drains in moments: tell the client when to come back
    if (code === "VERIFY_BUSY") reply.header("retry-after", "1");
    // refused before its body was read to the end (413, 408, a failed upload): the connection
    // cannot carry another request; close it once the client has been able to read why (item 13)
    if (!request.raw.complete) {
      reply.header("connection", "close");
      lingerAfterAnswer(request.raw, uploadBudget);
    }
    return sendError(reply, request, code, message);
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, request, "NOT_FOUND"));

  registerSystemRoutes(app, deps, metrics);
  registerEntitlementRoutes(app, deps);
  registerSealRoutes(app, deps, metrics, sealVerifier, uploadBudget, uploadTimeouts);
  registerAdminRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerLogRoutes(app, deps);
  registerVerifyPageRoutes(app);
  if (deps.devIssuer) registerDevIssuerRoutes(app, deps.devIssuer);
  return app;
}
