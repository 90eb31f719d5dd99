import type { IncomingMessage } from "node:http";
import multipart from "@fastify/multipart";
import swagger from "@fastify/swagger";
import { edgeServerOptions, type HttpEdgeOptions, httpEdge, REQUEST_TIMEOUT_BOUNDS } from "@svc/http-edge";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import type { AppDeps } from "./app-deps.ts";
import type { VerifiedCaller } from "./auth/token-verifier.ts";
import { describeErrorCode, type EntitlementErrorCode } from "./errors/error-registry.ts";
import { classifyEntitlementError, EDGE_CODES } from "./http/error-envelope.ts";
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
    /** The admin actor of a request whose X-SVC-ADMIN-TOKEN was verified (onRequest). */
    adminActor: string | null;
  }
}

/** Builds the HTTP app from its dependencies; it does not listen. */
export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const metrics = deps.metrics ?? createServiceMetrics();
  deps.store.subscribe(countLedgerEvents(metrics));
  const sealVerifier = deps.sealVerifier ?? createSealVerifyPool({ trustedKeys: deps.trustedKeys });
  // every upload's bytes are charged to one budget, so uploads cannot take the event loop (item 7)
  const uploadBudget = new UploadBudget(UPLOAD_BYTES_PER_SECOND, UPLOAD_BURST_BYTES);
  // the shared HTTP edge (issue 29 item 4): envelope, request ids, framework errors, drain, metrics
  const edge: HttpEdgeOptions<EntitlementErrorCode> = {
    codes: EDGE_CODES,
    describe: describeErrorCode,
    bodyLimit: MAX_SVG_BYTES,
    requestTimeoutMs: deps.requestTimeoutMs ?? REQUEST_TIMEOUT_BOUNDS.fallback,
    metrics,
    classify: classifyEntitlementError,
    beforeErrorAnswer: (answer, request, reply) => {
      // a full verification queue drains in moments: tell the client when to come back
      if (answer.code === "VERIFY_BUSY") reply.header("retry-after", "1");
      // refused part-way through its body (413, 408, a failed upload): the connection cannot
      // carry another request; close it once the client has been able to read why (item 13). A
      // body refused before its first byte was read (no token: issue 38 item 4) is never read:
      // the edge closes that connection unread.
      if (!request.raw.complete && request.raw.readableDidRead) {
        reply.header("connection", "close");
        lingerAfterAnswer(request.raw, uploadBudget);
      }
    },
  };
  const app = Fastify({ logger: deps.logger ?? false, ...edgeServerOptions(edge) });
  await app.register(httpEdge<EntitlementErrorCode>(), edge);
  if (deps.sealVerifier === undefined) app.addHook("onClose", async () => sealVerifier.close());
  app.decorateRequest("caller", null);
  app.decorateRequest("adminActor", null);
  // read as it streams in, not buffered by Fastify: the bytes go to a verification worker
  // untouched, and an upload over the verifier's cap is only counted (issue 9 item 7)
  const uploadTimeouts = deps.uploadTimeouts ?? UPLOAD_TIMEOUTS;
  app.addContentTypeParser("image/svg+xml", (request: FastifyRequest, payload: IncomingMessage) =>
    readSvgBody(payload, request.headers["content-length"], MAX_SVG_BYTES, uploadBudget, uploadTimeouts),
  );
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
