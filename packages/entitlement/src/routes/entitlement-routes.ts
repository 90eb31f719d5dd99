import {
  checkResponseSchema,
  consumeResponseSchema,
  findProvenancePathProblem,
  type ProvenanceFacts,
  provenanceDisagreement,
  provenanceFactsSchema,
  runCompleteResponseSchema,
  runCompleteSchema,
  runParamsSchema,
  runStartResponseSchema,
  runStartSchema,
} from "@svc/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.ts";
import type { VerifiedCaller } from "../auth/token-verifier.ts";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { assertSealSafe } from "../http/assert-seal-safe.ts";
import { parseStorableBody } from "../http/parse-storable-body.ts";
import { describeRoute } from "../http/route-schema.ts";
import { proveLeaf } from "../log/seal-log.ts";
import { createSealIssuer } from "../seal/create-seal-issuer.ts";
import { signRunProvenance } from "../seal/sign-run-provenance.ts";
import { sealLogSignerOf } from "./log-routes.ts";

const AUTH_ERRORS = [400, 401, 403];

/** run_complete's body bound: its provenance lists every output and input file (README, PAYLOAD_TOO_LARGE). */
export const RUN_COMPLETE_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * run_complete's `provenance` apart from the rest of the body: it is signed, never stored, so its
 * file paths are held to the schema but not to the stores' text rules (a staged input named in
 * NFD, as macOS writes names, must not cost the run its seal).
 */
function splitProvenance(body: unknown): { provenance: unknown; body: unknown } {
  if (typeof body !== "object" || body === null || Array.isArray(body) || !("provenance" in body))
    return { provenance: undefined, body };
  const { provenance, ...rest } = body as Record<string, unknown>;
  return { provenance, body: rest };
}

function parseProvenanceFacts(value: unknown): ProvenanceFacts {
  const result = provenanceFactsSchema.safeParse(value);
  if (result.success) {
    // issue 38 item 6: only paths a run folder holds are signed, whatever they hash to
    const found = findProvenancePathProblem(result.data);
    if (found !== null)
      throw new EntitlementError("PROVENANCE_PATH_INVALID", `field ${found.field}: ${found.problem}`);
    return result.data;
  }
  const problems = result.error.issues.map(
    (issue) => `field provenance${issue.path.map((part) => `.${String(part)}`).join("")}: ${issue.message}`,
  );
  throw new EntitlementError("REQUEST_INVALID", problems.join("; "));
}

/** The caller verified by the onRequest hook of every authenticated route. */
export function callerOf(request: FastifyRequest): VerifiedCaller {
  if (request.caller === null) throw new Error("route is missing its authentication hook");
  return request.caller;
}

/**
 * The `onRequest` hook that verifies the bearer ID token (spec §5.1) from the headers alone,
 * before any byte of the body is read or parsed (issue 38 item 4): a caller without a valid token
 * is answered and its connection closed unread (the HTTP edge), so a route's large body limit
 * (run_complete's 16 MiB) is only ever reached by a caller whose token verified.
 */
export function authenticate(deps: AppDeps) {
  return async (request: FastifyRequest): Promise<void> => {
    request.caller = await deps.verifyAuthorization(request.headers.authorization);
  };
}

/** The four lifecycle calls of the runner (spec §3 ordering rule, §4.1). */
export function registerEntitlementRoutes(app: FastifyInstance, deps: AppDeps): void {
  const onRequest = authenticate(deps);
  const issueSeal = createSealIssuer({
    key: deps.signingKey,
    issuerName: deps.issuerName,
    verifyUrl: deps.verifyUrl,
  });
  const tags = ["entitlement"];

  app.post(
    "/api/entitlement/check",
    {
      onRequest,
      schema: describeRoute({
        summary: "Is a run available to the caller for this run_id (no side effect)",
        tags,
        auth: "bearer",
        body: runParamsSchema,
        response: checkResponseSchema,
        errors: [...AUTH_ERRORS, 402, 409],
      }),
    },
    async (request) => {
      const params = parseStorableBody(runParamsSchema, request.body);
      const principal = callerOf(request).principal;
      assertSealSafe([["principal", principal]]);
      return deps.store.checkRun(principal, params);
    },
  );

  app.post(
    "/api/entitlement/consume",
    {
      onRequest,
      schema: describeRoute({
        summary: "Consume one run for run_id (idempotent for the same caller and parameters)",
        tags,
        auth: "bearer",
        body: runParamsSchema,
        response: consumeResponseSchema,
        errors: [...AUTH_ERRORS, 402, 409],
      }),
    },
    async (request) => {
      const params = parseStorableBody(runParamsSchema, request.body);
      const principal = callerOf(request).principal;
      // the principal is printed on the seal: a run is never charged for a principal it could not seal
      assertSealSafe([["principal", principal]]);
      return deps.store.consumeRun(principal, params);
    },
  );

  app.post(
    "/api/entitlement/run_start",
    {
      onRequest,
      schema: describeRoute({
        summary: "Record run-start metadata: input hash, image, project, mode, module, category",
        tags,
        auth: "bearer",
        body: runStartSchema,
        response: runStartResponseSchema,
        errors: [...AUTH_ERRORS, 409, 422],
      }),
    },
    async (request) => {
      const fields = parseStorableBody(runStartSchema, request.body);
      const principal = callerOf(request).principal;
      assertSealSafe([
        ["principal", principal],
        ["category_id", fields.category_id],
        ["image.reference", fields.image.reference],
      ]);
      return deps.store.startRun(principal, fields);
    },
  );

  app.post(
    "/api/entitlement/run_complete",
    {
      onRequest,
      // its provenance lists every output and input file (issue 30 item 6)
      bodyLimit: RUN_COMPLETE_BODY_LIMIT,
      schema: describeRoute({
        summary: "Mark the run completed and return its seal bundle (same hashes on retry: same seal)",
        tags,
        auth: "bearer",
        body: runCompleteSchema,
        response: runCompleteResponseSchema,
        errors: [...AUTH_ERRORS, 409, 422],
      }),
    },
    async (request) => {
      const { provenance: rawFacts, body } = splitProvenance(request.body);
      const fields = parseStorableBody(runCompleteSchema, body);
      const facts = rawFacts === undefined ? undefined : parseProvenanceFacts(rawFacts);
      // issue 30 item 6: a statement that disagrees with what would be sealed is refused before
      // anything is sealed (its lists must hash to the sealed outputs and the run's inputs)
      const principal = callerOf(request).principal;
      const found = facts === undefined ? null : await deps.store.getRun(fields.run_id);
      // another principal's run is completeRun's to refuse (409), never compared here
      const run = found?.principal === principal ? found : null;
      if (facts !== undefined && run?.inputs_sha256 != null) {
        const disagreement = provenanceDisagreement(
          { outputs_sha256: fields.outputs_sha256, inputs_sha256: run.inputs_sha256 },
          facts,
        );
        if (disagreement !== null) throw new EntitlementError("PROVENANCE_MISMATCH", disagreement);
      }
      const completed = await deps.store.completeRun(principal, fields, issueSeal);
      // issue 30 item 3: the seal's leaf committed with it; prove it in the tree as it is now
      const log = await proveLeaf(deps.store, sealLogSignerOf(deps), {
        sealId: completed.seal.seal_id,
        event: "issued",
      });
      const provenance =
        facts === undefined ? undefined : signRunProvenance(completed.seal, facts, deps.signingKey, run);
      return { ...completed, log, ...(provenance === undefined ? {} : { provenance }) };
    },
  );
}
