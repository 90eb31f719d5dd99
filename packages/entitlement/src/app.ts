import { randomUUID } from "node:crypto";
import multipart from "@fastify/multipart";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import type { AppDeps } from "./app-deps.ts";
import type { VerifiedCaller } from "./auth/token-verifier.ts";
import { EntitlementError } from "./errors/entitlement-error.ts";
import { describeErrorCode, type EntitlementErrorCode } from "./errors/error-registry.ts";
import { createServiceMetrics } from "./http/metrics.ts";
import { MAX_SVG_BYTES } from "./http/read-svg-upload.ts";
import { registerAccountRoutes } from "./routes/account-routes.ts";
import { registerAdminRoutes } from "./routes/admin-routes.ts";
import { registerDevIssuerRoutes } from "./routes/dev-issuer-routes.ts";
import { registerEntitlementRoutes } from "./routes/entitlement-routes.ts";
import { registerSealRoutes } from "./routes/seal-routes.ts";
import { registerSystemRoutes } from "./routes/system-routes.ts";

declare module "fastify" {
  interface FastifyRequest {
    caller: VerifiedCaller | null;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Builds the HTTP app from its dependencies; it does not listen. */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const metrics = deps.metrics ?? createServiceMetrics();
  const app = Fastify({
    logger: deps.logger ?? false,
    // a caller's X-Request-Id is kept when it is short and plain, otherwise a fresh one
    genReqId: (request) => {
      const header = request.headers["x-request-id"];
      return typeof header === "string" && REQUEST_ID.test(header) ? header : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: MAX_SVG_BYTES,
    return503OnClosing: true,
  });
  app.decorateRequest("caller", null);
  app.addContentTypeParser(
    "image/svg+xml",
    { parseAs: "buffer", bodyLimit: MAX_SVG_BYTES },
    (_request, body, done) => done(null, body),
  );
  await app.register(multipart, { limits: { fileSize: MAX_SVG_BYTES, files: 1, fields: 4, parts: 5 } });
  // zod validates (parseBody); route schemas only document, so no ajv validation or serializer
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
    const { status } = describeErrorCode(code);
    if (status >= 500) request.log.error({ err: error, code }, "request failed");
    else request.log.info({ code }, "request refused");
    return reply.status(status).send({ error: { code, message, request_id: request.id } });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: { code: "NOT_FOUND", message: describeErrorCode("NOT_FOUND").message, request_id: request.id },
    }),
  );

  registerSystemRoutes(app, deps, metrics);
  registerEntitlementRoutes(app, deps, metrics);
  registerSealRoutes(app, deps, metrics);
  registerAdminRoutes(app, deps, metrics);
  registerAccountRoutes(app, deps);
  if (deps.devIssuer) registerDevIssuerRoutes(app, deps.devIssuer);
  return app;
}

// Everything a client can send maps to a 4xx with a stable code; only our own faults are 500.
function toErrorCode(error: FastifyError): { code: EntitlementErrorCode; message: string } {
  if (error instanceof EntitlementError)
    return { code: error.code, message: error.message || describeErrorCode(error.code).message };
  const status = error.statusCode ?? 500;
  if (status === 413)
    return { code: "PAYLOAD_TOO_LARGE", message: `the body exceeds ${MAX_SVG_BYTES} bytes` };
  if (status === 415) return { code: "UNSUPPORTED_MEDIA_TYPE", message: "unsupported Content-Type" };
  if (status === 404) return { code: "NOT_FOUND", message: describeErrorCode("NOT_FOUND").message };
  if (status === 503) return { code: "STORE_UNAVAILABLE", message: "the service is shutting down" };
  if (status >= 400 && status < 500)
    return { code: "REQUEST_INVALID", message: `field (body): ${error.message.slice(0, 200)}` };
  return { code: "INTERNAL", message: describeErrorCode("INTERNAL").message };
}
