import {
  issueRequestSchema,
  issueResponseSchema,
  revokeRequestSchema,
  revokeResponseSchema,
} from "@svc/core";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../app-deps.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { adminActorOf, requireAdmin } from "../http/admin-tokens.ts";
import { assertSealSafe } from "../http/assert-seal-safe.ts";
import { parseStorableBody } from "../http/parse-storable-body.ts";
import { describeRoute } from "../http/route-schema.ts";

/** Admin issuance and seal revocation (spec §4.1, §5.1 rule 4: header X-SVC-ADMIN-TOKEN). */
export function registerAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const onRequest = requireAdmin(deps.adminTokens);
  app.post(
    "/api/entitlement/issue",
    {
      onRequest,
      schema: describeRoute({
        summary: "Grant runs to a principal (admin); idempotency_key makes a retried grant count once",
        tags: ["admin"],
        auth: "admin",
        body: issueRequestSchema,
        response: issueResponseSchema,
        errors: [400, 403, 409],
      }),
    },
    async (request) => {
      const actor = adminActorOf(request);
      const body = parseStorableBody(issueRequestSchema, request.body);
      assertSealSafe([["principal", body.principal]]);
      return deps.store.grantRuns({ ...body, actor });
    },
  );

  // A withdrawn seal still verifies cryptographically offline; online verify reports `revoked`
  // and it can no longer be redeemed. Repeating a revocation is harmless (same answer).
  app.post(
    "/api/seal/revoke",
    {
      onRequest,
      schema: describeRoute({
        summary: "Withdraw a seal issued here (admin): verify then reports revoked, redemption is refused",
        tags: ["admin"],
        auth: "admin",
        body: revokeRequestSchema,
        response: revokeResponseSchema,
        errors: [400, 403, 404],
      }),
    },
    async (request) => {
      const actor = adminActorOf(request);
      const body = parseStorableBody(revokeRequestSchema, request.body);
      if (!(await deps.store.revokeSeal(body.seal_id, `${body.reason} (by ${actor})`))) {
        throw new EntitlementError("SEAL_NOT_FOUND");
      }
      request.log.info({ seal_id: body.seal_id, actor }, "seal revoked");
      return { seal_id: body.seal_id, revoked: true as const };
    },
  );
}
